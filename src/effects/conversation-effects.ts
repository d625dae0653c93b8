import { isBootyError } from '../errors.js';
import type { ForgeEffects } from '../forges/forge.js';
import type { EffectImpls } from '../machines/effect-contract.js';
import { type JobContext, roundPushable } from '../machines/job-context.js';
import type { Workspace } from '../workspace/workspace.js';

// The effects of a job's life with its open PR, made from the forge's effects and the workspace.
// A round ends in `answerRound`: its work is pushed only when its tests passed (a PR is never
// made worse by booty), and every request it answers gets a reply either way.

type ConversationEffects = Pick<
  EffectImpls,
  'readCi' | 'rerunCi' | 'demotePr' | 'syncBranch' | 'answerRound'
>;

export function createConversationEffects(
  github: ForgeEffects,
  workspace: () => Promise<Workspace>,
): ConversationEffects {
  return {
    readCi: github.readCi,
    rerunCi: github.rerunCi,
    demotePr: github.demotePr,
    syncBranch: async (input, { signal }) => (await workspace()).syncRound(input.job, signal),
    answerRound: async (input, { signal }) => {
      const { job } = input;
      const round = job.round!;
      let commit: string | null = null;
      let headSha = job.pr!.headSha;
      if (roundPushable(job)) {
        // The commit's date is the job's, so a re-run after a crash builds the very same commit.
        const at = Math.floor(job.requestedAt / 1000);
        const pushed = await (await workspace())
          .pushRound(job, { n: round.n, at, message: roundMessage(job) }, signal)
          .catch((err: unknown) => {
            if (refusedByFork(job, err)) return null;
            throw err;
          });
        if (!pushed) {
          const { replies } = await github.answerRound(job, { commit: null, note: forkRefusal(job) });
          return { commit: null, headSha, replies };
        }
        commit = pushed.commit;
        headSha = pushed.headSha;
      }
      const note = commit ? null : (round.note ?? 'The round changed nothing.');
      const { replies } = await github.answerRound(job, { commit, note });
      return { commit, headSha, replies };
    },
  };
}

/**
 * The fork a pull request is from refused booty's push: its author unticked "Allow edits by
 * maintainers" since the job started (GitHub then denies the App the branch). The round ends with
 * a reply that says what is needed, and nothing is retried.
 */
function refusedByFork(job: JobContext, err: unknown): boolean {
  return job.request.onPr?.fork != null && isBootyError(err, 'BOOTY_E_GIT_AUTH');
}

function forkRefusal(job: JobContext): string {
  const pr = job.request.onPr!;
  return `the fork ${pr.fork} refused booty's push to its branch \`${pr.headRef}\`. @${pr.author}, tick "Allow edits by maintainers" on this pull request, then ask again.`;
}

/** What the round's commit says: what it answers, in one line, and the issue it belongs to. */
export function roundMessage(job: Pick<JobContext, 'round' | 'issue'>): string {
  const triggers = job.round?.triggers ?? [];
  const what = triggers.some((t) => t.kind === 'ci')
    ? 'fix failing CI'
    : triggers.some((t) => t.kind === 'command' && t.command === 'apply')
      ? 'apply review suggestions'
      : triggers.some((t) => t.kind === 'feedback' && t.place === 'review')
        ? 'address review'
        : 'follow-up';
  const who = [...new Set(triggers.flatMap((t) => (t.kind === 'ci' ? [] : [`@${t.author}`])))];
  return `fix: ${what} (#${job.issue.number})\n\n${who.length ? `Requested by ${who.join(', ')}.\n\n` : ''}Refs #${job.issue.number}.\n`;
}
