import type { AttemptRecord, JobContext, Round, RoundTrigger } from '../machines/job-context.js';
import { code } from './markdown-format.js';

// Rounds apart from the first loop's attempts: an attempt is named by the round it ran in and its
// place there ("round 2, attempt 1 of 3"), never by its place in the job ("attempt 5 of 3"). And
// what the pull request holds: the first loop's work and every round that pushed.

/** The round an attempt ran in (null: the first loop) and its number within it. */
export function attemptPlace(n: number, rounds: readonly Round[]): { round: number | null; k: number } {
  const round = rounds.findLast((r) => r.firstAttempt <= n && r.result !== 'answered');
  return round ? { round: round.n, k: n - round.firstAttempt + 1 } : { round: null, k: n };
}

/** "Attempt 2 of 3", or "Round 1, attempt 1 of 3". */
export function attemptName(n: number, rounds: readonly Round[], max: number): string {
  const { round, k } = attemptPlace(n, rounds);
  return round === null ? `Attempt ${k} of ${max}` : `Round ${round}, attempt ${k} of ${max}`;
}

/** "2 of 3 attempts", or "1 of 3 attempts in round 2": how far a loop got, as the machine says it. */
export function triedWords(n: number, rounds: readonly Round[], max: number): string {
  const { round, k } = attemptPlace(n, rounds);
  return `${k} of ${max} attempts${round === null ? '' : ` in round ${round}`}`;
}

/** The attempts whose work is on the pull request: the first loop's, and those of rounds that pushed. */
export function pushedAttempts(ctx: Pick<JobContext, 'attempts' | 'conversation'>): AttemptRecord[] {
  const rounds = ctx.conversation.rounds;
  return ctx.attempts.filter((a) => {
    const { round } = attemptPlace(a.n, rounds);
    return round === null || rounds.find((r) => r.n === round)?.result === 'pushed';
  });
}

/** The paths booty's work changed on the pull request, each once, as its last change left it. */
export function filesOnPr(ctx: Pick<JobContext, 'attempts' | 'conversation'>): string[] {
  const last = new Map<string, boolean>();
  for (const a of pushedAttempts(ctx)) {
    for (const path of a.files) {
      const proposed = a.proposed.find((p) => p.path === path);
      last.set(path, proposed?.content === null);
    }
  }
  return [...last].map(([path, deleted]) => (deleted ? `${path} (deleted)` : path));
}

/** The model's account of the work a round (or the first loop, null) left: its last applied attempt's. */
export function explanationOf(
  ctx: Pick<JobContext, 'attempts' | 'conversation'>,
  round: number | null,
): string | null {
  const applied = ctx.attempts.filter(
    (a) => a.applied && a.files.length > 0 && attemptPlace(a.n, ctx.conversation.rounds).round === round,
  );
  return applied.at(-1)?.explanation.trim() || null;
}

const short = (sha: string) => code(sha.slice(0, 7));

/** What a round left on the pull request, in a few words. */
export function roundResult(r: Round): string {
  if (r.result === null) return 'under way';
  if (r.result === 'pushed') return `pushed ${short(r.commit!)}`;
  if (r.result === 'stopped') return 'stopped';
  if (r.result === 'answered') return `answered at ${short(r.answer?.commit ?? '')}, nothing committed`;
  return 'nothing pushed';
}

/** What asked for a round, in a few words. */
export function asked(t: RoundTrigger): string {
  if (t.kind === 'ci')
    return `CI failed on ${short(t.sha)} (${t.failing.map((f) => f.name).join(', ') || 'no check named'})`;
  if (t.kind === 'command') return `\`@booty ${t.command}\` from @${t.author}`;
  if (t.kind === 'question') return `a question by @${t.author}`;
  return t.place === 'review' ? `a review by @${t.author}` : `a request by @${t.author}`;
}

/** One round in a line: what asked for it, what it left, and what the model said of its work. */
export function roundLine(ctx: JobContext, r: Round): string {
  const what = r.triggers.map(asked).join('; ');
  const result = r.result === 'not-pushed' && r.note ? `nothing pushed: ${r.note}` : roundResult(r);
  const said = r.result === 'pushed' ? explanationOf(ctx, r.n) : null;
  return `- Round ${r.n}, for ${what}: ${result}${said ? ` — ${said}` : ''}`;
}
