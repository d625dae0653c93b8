import type { JobStateName } from '../machines/job.js';
import type { JobContext, Round, RoundTrigger } from '../machines/job-context.js';
import { plural } from '../text.js';

// The progress comment as the PR's control panel: what the job waits for, CI on the PR's head,
// each round with what asked for it and what came of it, a reached bound, and the commands a
// writer can give. Commands are in code spans, so GitHub mentions nobody.

const short = (sha: string) => `\`${sha.slice(0, 7)}\``;

function asked(t: RoundTrigger): string {
  if (t.kind === 'ci')
    return `CI failed on ${short(t.sha)} (${t.failing.map((f) => f.name).join(', ') || 'no check named'})`;
  if (t.kind === 'command') return `\`@booty ${t.command}\` from @${t.author}`;
  if (t.kind === 'question') return `a question by @${t.author}`;
  return t.place === 'review' ? `a review by @${t.author}` : `a request by @${t.author}`;
}

function roundLine(r: Round): string {
  const what = r.triggers.map(asked).join('; ');
  const result =
    r.result === null
      ? 'under way'
      : r.result === 'pushed'
        ? `pushed ${short(r.commit!)}`
        : r.result === 'stopped'
          ? 'stopped'
          : r.result === 'answered'
            ? `answered at ${short(r.answer?.commit ?? '')}, nothing committed`
            : `nothing pushed${r.note ? `: ${r.note}` : ''}`;
  return `- Round ${r.n}, for ${what}: ${result}`;
}

function ciLine(ci: JobContext['conversation']['ci']): string {
  if (!ci) return 'not read yet';
  const where = `on ${short(ci.sha)}`;
  switch (ci.state) {
    case 'none':
      return `no checks ${where}`;
    case 'pending':
      // Nothing listed yet on a commit whose parent ran CI: it has not started.
      return ci.total === 0 ? `not started yet ${where}` : `running ${where} (${plural(ci.total, 'check')})`;
    case 'passed':
      return `passed ${where} (${plural(ci.total, 'check')})`;
    case 'failed':
      return `failed ${where}: ${ci.failing.map((f) => f.name).join(', ')}`;
  }
}

const WAITING: Partial<Record<JobStateName, string>> = {
  prOpened: 'waits with its draft for a review, a writer’s `@booty`, or CI',
  promoted: 'waits with its pull request for a review, a writer’s `@booty`, or CI',
  budgetExhausted: 'waits at its token budget for a writer’s `@booty continue`',
};

export function conversationSection(ctx: JobContext, state: JobStateName): string | null {
  if (!ctx.pr) return null;
  const c = ctx.conversation;
  const lines: string[] = [];
  const waiting = WAITING[state];
  if (waiting) lines.push(`**Now:** booty ${waiting}.`);
  // CI on someone else's pull request is theirs to read: booty reads it only on its own.
  if (!ctx.request.onPr) lines.push(`**CI:** ${ciLine(c.ci)}`);
  if (c.heldDraft && ctx.pr.draft)
    lines.push(
      `**Draft:** @${c.heldDraft} turned it back to draft; booty leaves it so until someone marks it ready.`,
    );
  if (c.bounded) {
    const what = c.bounded === 'followUps' ? 'rounds for reviews and requests' : 'rounds to fix CI';
    lines.push(`**Bound reached:** no more ${what} (booty.yml); a writer’s \`@booty\` lifts it once.`);
  }
  const parts = [lines.join('  \n')];
  if (c.rounds.length) parts.push(c.rounds.map(roundLine).join('\n'));
  parts.push(
    '<details><summary>Commands</summary>\n\nFrom people with write access, on the issue or the pull request: `@booty <what to change>` starts a round, `@booty <question>?` gets an answer and no commit, `@booty retry` runs another, `@booty stop` stops the round under way, `@booty continue` resumes a job waiting at its token budget, `@booty cancel` ends the job.\n</details>',
  );
  return parts.join('\n\n');
}
