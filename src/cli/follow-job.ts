import type { JobObserver } from '../engine/supervisor.js';
import type { JobSettings } from '../events/job-events.js';
import { stateName } from '../machines/job-states.js';
import type { Booty } from '../main/compose.js';
import { sandboxChoice } from '../sandbox/sandbox-mode.js';
import { sandboxNotice } from '../views/test-evidence.js';
import type { Io } from './command.js';

// A job run in this process (`booty run`, `booty jobs retry`), followed to where it stops: each
// state as it is reached, then how it ended and what it waits for, and the exit code.

/** Prints each new state with its time. */
export function stateEcho(io: Pick<Io, 'out'>): JobObserver {
  let last = '';
  return {
    changed: ({ snapshot }) => {
      const s = stateName(snapshot);
      if (s === last) return;
      last = s;
      io.out(`  ${new Date().toISOString()}  ${s}`);
    },
  };
}

/**
 * Waits for the job to stop here and says how: 0 when its PR is ready for review, or is a draft
 * whose tests passed that waits for CI or a human; 1 otherwise.
 */
export async function followJob(booty: Booty, jobId: string, io: Pick<Io, 'out'>): Promise<number> {
  const snapshot = await booty.supervisor.whenFinished(jobId);
  await booty.runtime?.reporter.idle(jobId);
  if (booty.supervisor.heldJobs.includes(jobId)) {
    io.out(
      'held: this installation spent BOOTY_MAX_USD_PER_DAY today, and the issue says so; the job starts at the first `booty serve` or `booty run` after 00:00 UTC, or with a higher cap',
    );
    return 1;
  }
  const { outcome, pr, baseline, attempts } = snapshot.context;
  io.out(`${stateName(snapshot)}${outcome ? `: ${outcome.message}` : ''}${pr ? `\n  ${pr.url}` : ''}`);
  const sandbox = sandboxChoice(booty.env.BOOTY_SANDBOX, 'auto');
  const notice = sandboxNotice([baseline, ...attempts.map((a) => a.test)], sandbox);
  if (notice)
    io.out(
      `  ⚠ ${notice} ${sandbox.mode === 'off' ? 'Set BOOTY_SANDBOX=auto, with bubblewrap installed,' : 'Install bubblewrap'} to contain them.`,
    );
  // Done well: a PR made ready, or a draft whose tests passed that waits for CI or a human.
  const state = stateName(snapshot);
  const waits = waitingLine(state, snapshot.context.settings, snapshot.context.conversation.headTested);
  if (waits) io.out(`  ${waits}`);
  return state === 'promoted' || (state === 'prOpened' && snapshot.context.conversation.headTested) ? 0 : 1;
}

/** What a job that stopped here waits for, and who answers how; null for a job that ended. */
function waitingLine(state: string, settings: JobSettings, headTested: boolean): string | null {
  if (state === 'promoted')
    return 'The job waits with its pull request for a review and the merge; `booty serve` takes its reviews and CI from here.';
  if (state === 'prOpened' && headTested)
    return "The job waits with its draft pull request for CI or a human's review; `booty serve` takes its reviews and CI from here.";
  if (state === 'prOpened')
    return "The job waits with its draft pull request: a writer's review, `@booty <what to change>` or `@booty retry` starts another round (`@booty cancel` ends the job); `booty serve` takes it from there.";
  if (state === 'awaitingApproval')
    return "The job waits in awaitingApproval for a writer's answer to its plan on the issue: `@booty approve`, `@booty revise <what to change>` or `@booty cancel`; `booty serve` takes it from there.";
  if (state === 'budgetExhausted') {
    const step = settings.budgetStep ?? settings.maxTokens ?? 0;
    return `The job waits in budgetExhausted at its token budget: a writer's \`@booty continue\` on the issue raises it by ${step} tokens and resumes where it stopped (\`@booty cancel\` ends it); \`booty serve\` takes it from there.`;
  }
  return null;
}
