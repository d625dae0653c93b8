import { BootyError } from '../../errors.js';
import type { EffectImpl } from '../../machines/effect-contract.js';
import type { CiDeps } from './ci-read.js';
import { githubError, githubMessage, httpStatus } from './github-errors.js';

// Red CI is re-run once before booty calls it a real failure: a flaky check should not cost a
// round. Only the failed jobs run again, as GitHub's "Re-run failed jobs" button does.

/** GitHub refuses a re-run of a run that is running again: after a crash, that is this re-run. */
const alreadyRunning = (err: unknown) =>
  [403, 409, 422].includes(httpStatus(err) ?? 0) &&
  /already (running|in progress)|in progress/i.test(githubMessage(err));

/** Re-runs the failed jobs of each failed Actions run on the PR's head, as last read. */
export function rerunCi(deps: CiDeps): EffectImpl<'rerunCi'> {
  return async ({ job }) => {
    if (!job.pr) {
      throw new BootyError('BOOTY_E_GITHUB_PRECONDITION', {
        step: 'rerunCi',
        jobId: job.jobId,
        reason: 'no pull request was opened',
      });
    }
    const gh = await deps.clients.forJob(job);
    const runs = job.conversation.ci?.rerunnable ?? [];
    for (const id of runs) {
      try {
        await gh.rest.actions.reRunWorkflowFailedJobs({
          owner: job.repo.owner,
          repo: job.repo.name,
          run_id: id,
        });
      } catch (err) {
        if (!alreadyRunning(err)) throw githubError(err);
        deps.log?.info({ jobId: job.jobId, run: id }, 'the workflow run is already re-running');
      }
    }
    deps.log?.info({ jobId: job.jobId, runs }, 're-ran the failed CI jobs');
    return { sha: job.pr.headSha, runs };
  };
}
