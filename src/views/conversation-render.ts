import type { JobContext } from '../machines/job-context.js';
import type { JobStateName } from '../machines/job-states.js';
import { plural } from '../text.js';
import { roundLine } from './round-record.js';

// The progress comment as the PR's control panel: what the job waits for, CI on the PR's head,
// each round with what asked for it and what came of it, a reached bound, and the commands a
// writer can give. Commands are in code spans, so GitHub mentions nobody.

const short = (sha: string) => `\`${sha.slice(0, 7)}\``;

function ciLine(ci: JobContext['conversation']['ci'], reruns: readonly string[]): string {
  if (!ci) return 'not read yet';
  const rerun = reruns.includes(ci.sha);
  const where = `on ${short(ci.sha)}`;
  switch (ci.state) {
    case 'none':
      return `no checks ${where}`;
    case 'pending':
      // Nothing listed yet on a commit whose parent ran CI: it has not started.
      return ci.total === 0 ? `not started yet ${where}` : `running ${where} (${plural(ci.total, 'check')})`;
    case 'passed':
      return rerun
        ? `passed ${where} (${plural(ci.total, 'check')}) once booty re-ran its failed jobs: a flaky check, not the change`
        : `passed ${where} (${plural(ci.total, 'check')})`;
    case 'failed':
      return `failed ${where}: ${ci.failing.map((f) => f.name).join(', ')}`;
  }
}

const WAITING: Partial<Record<JobStateName, string>> = {
  prOpened: 'waits with its draft for a review, a writer’s `@booty`, or CI',
  promoted: 'waits with its pull request for a review, a writer’s `@booty`, or CI',
  budgetExhausted: 'waits at its token budget for a writer’s `@booty continue`',
};

/** The PR's control panel; once the job has ended, only the rounds it ran stay on record. */
export function conversationSection(ctx: JobContext, state: JobStateName, ended = false): string | null {
  if (!ctx.pr) return null;
  const c = ctx.conversation;
  const rounds = c.rounds.length ? c.rounds.map((r) => roundLine(ctx, r)).join('\n') : null;
  if (ended) return rounds && `#### Rounds\n\n${rounds}`;
  const lines: string[] = [];
  const waiting = WAITING[state];
  if (waiting) lines.push(`**Now:** booty ${waiting}.`);
  // CI on someone else's pull request is theirs to read: booty reads it only on its own.
  if (!ctx.request.onPr) lines.push(`**CI:** ${ciLine(c.ci, c.reruns)}`);
  if (c.heldDraft && ctx.pr.draft)
    lines.push(
      `**Draft:** @${c.heldDraft} turned it back to draft; booty leaves it so until someone marks it ready.`,
    );
  if (c.bounded) {
    const what = c.bounded === 'followUps' ? 'rounds for reviews and requests' : 'rounds to fix CI';
    lines.push(`**Bound reached:** no more ${what} (booty.yml); a writer’s \`@booty\` lifts it once.`);
  }
  const parts = [lines.join('  \n')];
  if (rounds) parts.push(rounds);
  parts.push(
    '<details><summary>Commands</summary>\n\nFrom people with write access, on the issue or the pull request: `@booty <what to change>` starts a round, `@booty <question>?` gets an answer and no commit, `@booty retry` runs another, `@booty stop` stops the round under way, `@booty continue` resumes a job waiting at its token budget, `@booty cancel` ends the job.\n</details>',
  );
  return parts.join('\n\n');
}
