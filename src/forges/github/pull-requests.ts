import { BootyError } from '../../errors.js';
import type { DependencyChange, PullRequest } from '../../events/effect-results.js';
import type { Logger } from '../../log.js';
import type { EffectImpl } from '../../machines/effect-contract.js';
import type { EffectInput, JobContext } from '../../machines/job-context.js';
import type { SandboxChoice } from '../../sandbox/sandbox-mode.js';
import { prTitle, renderPrBody } from '../../views/pr-body.js';
import { readCiAt } from './ci-read.js';
import type { GitHubClient, GitHubClients } from './clients.js';
import { githubError, githubMessage, httpStatus, mapped } from './github-errors.js';
import { correctDemotions } from './pr-demotion.js';

// The job's draft pull request and its promotion. Both run again after a crash, so both look
// before they act: an open PR from the job's branch is reused, never duplicated, and a PR that is
// already ready for review is left alone.

export interface PullRequestDeps {
  clients: GitHubClients;
  log?: Logger;
  /** Removes secrets before anything is published. */
  scrub?: (text: string) => string;
  /** The sandbox mode the tests run under, and who chose it, for the PR body's notice. */
  sandbox?: SandboxChoice;
  /** When CI was read, for the promotion's result; default Date.now. */
  now?: () => number;
}

interface PrData {
  number: number;
  html_url: string;
  node_id: string;
  draft?: boolean;
  body: string | null;
}

export type OpenedPr = Omit<PullRequest, 'at'>;

export async function findOpenPr(
  gh: GitHubClient,
  job: Pick<JobContext, 'repo' | 'branch'>,
): Promise<PrData | null> {
  const { data } = await mapped(() =>
    gh.rest.pulls.list({
      owner: job.repo.owner,
      repo: job.repo.name,
      state: 'open',
      head: `${job.repo.owner}:${job.branch}`,
      per_page: 10,
    }),
  );
  return (data as PrData[])[0] ?? null;
}

const result = (pr: PrData, headSha: string, created: boolean): OpenedPr => ({
  number: pr.number,
  url: pr.html_url,
  nodeId: pr.node_id,
  draft: pr.draft ?? false,
  headSha,
  created,
});

/** Opens the job's draft PR for a pushed head, or returns the open one from its branch. */
export function openDraftPr(deps: PullRequestDeps) {
  return async (
    input: EffectInput,
    {
      headSha,
      dependencies = [],
      branchCreated = false,
    }: {
      headSha: string;
      dependencies?: DependencyChange[];
      /** The push made the branch: no open PR can be from it (GitHub closes a PR whose head is deleted). */
      branchCreated?: boolean;
    },
  ): Promise<OpenedPr> => {
    const { job } = input;
    const log = deps.log?.child({ jobId: job.jobId, step: 'openPr' });
    if (!job.workspace) {
      throw new BootyError('BOOTY_E_GITHUB_PRECONDITION', {
        step: 'openPr',
        jobId: job.jobId,
        reason: 'no workspace was prepared',
      });
    }
    const gh = await deps.clients.forJob(job);
    const body = (deps.scrub ?? ((t: string) => t))(
      renderPrBody(job, { dependencies, sandbox: deps.sandbox }),
    );
    const existing = branchCreated ? null : await findOpenPr(gh, job);
    if (existing) {
      if (existing.body !== body) {
        await mapped(() =>
          gh.rest.pulls.update({
            owner: job.repo.owner,
            repo: job.repo.name,
            pull_number: existing.number,
            body,
          }),
        );
      }
      log?.info({ pr: existing.number }, 'reusing the open pull request from the job branch');
      return result(existing, headSha, false);
    }
    try {
      const { data } = await gh.rest.pulls.create({
        owner: job.repo.owner,
        repo: job.repo.name,
        head: job.branch,
        base: job.workspace.defaultBranch,
        title: prTitle(job),
        body,
        draft: true,
        maintainer_can_modify: true,
      });
      log?.info({ pr: data.number }, 'opened a draft pull request');
      return result(data as PrData, headSha, true);
    } catch (err) {
      const mappedErr = githubError(err);
      const exists = httpStatus(err) === 422 && /already exists/i.test(githubMessage(err));
      const ambiguous = mappedErr instanceof BootyError && mappedErr.retryable;
      if (exists || ambiguous) {
        const again = await findOpenPr(gh, job);
        if (again) {
          log?.warn(
            { pr: again.number, err: (mappedErr as Error).message },
            'the create failed but the pull request is there',
          );
          return result(again, headSha, !exists);
        }
      }
      throw mappedErr;
    }
  };
}

const READY = `mutation BootyMarkReadyForReview($id: ID!) {
  markPullRequestReadyForReview(input: { pullRequestId: $id }) { pullRequest { isDraft } }
}`;

/**
 * Marks the job's PR ready for review once CI lets it: CI pending or red leaves it draft (the job
 * reads CI again when it finishes), CI green or absent promotes it. A PR already ready counts as done.
 */
export function promotePr(deps: PullRequestDeps): EffectImpl<'promotePr'> {
  return async (input) => {
    const { job } = input;
    if (!job.pr) {
      throw new BootyError('BOOTY_E_GITHUB_PRECONDITION', {
        step: 'promotePr',
        jobId: job.jobId,
        reason: 'no pull request was opened',
      });
    }
    // Defence in depth: the machine never promotes a self-modification, and neither does this.
    if (job.settings.selfModification) return { draft: true };
    const gh = await deps.clients.forJob(job);
    // Independent reads, at once: the PR as it is, and CI on the head booty pushed.
    const [{ data: current }, ciRead] = await Promise.all([
      mapped(() =>
        gh.rest.pulls.get({ owner: job.repo.owner, repo: job.repo.name, pull_number: job.pr!.number }),
      ),
      readCiAt(gh, job.repo, job.pr.headSha, deps, job.workspace?.baseSha),
    ]);
    if (current.state === 'closed') {
      throw new BootyError('BOOTY_E_GITHUB_PRECONDITION', {
        step: 'promotePr',
        jobId: job.jobId,
        reason: `pull request #${current.number} was closed`,
      });
    }
    const ci = { ...ciRead, at: (deps.now ?? Date.now)() };
    if (!current.draft) return { draft: false, ci };
    // Someone pushed after booty's head: what would be merged is not what booty tested. The push's
    // own event reaches the job, which decides again.
    const moved = current.head.sha !== job.pr.headSha;
    if (ci.state === 'pending' || ci.state === 'failed' || moved) {
      deps.log?.info(
        { jobId: job.jobId, pr: job.pr.number, ci: ci.state, head: current.head.sha },
        'the pull request stays draft',
      );
      return { draft: true, ci };
    }
    const reply = await mapped(() =>
      gh.graphql<{ markPullRequestReadyForReview: { pullRequest: { isDraft: boolean } } }>(READY, {
        id: current.node_id,
      }),
    );
    deps.log?.info({ jobId: job.jobId, pr: job.pr.number }, 'marked the pull request ready for review');
    const draft = reply.markPullRequestReadyForReview.pullRequest.isDraft;
    // A "CI failed" comment from before is wrong now: corrected, or left with a warning. Only a red
    // re-run demotes, so a job with no re-run has none, and its promotion asks nothing more: the
    // step ends as soon as the PR is ready, before the delivery that echoes it can come in.
    if (!draft && job.conversation.reruns.length > 0)
      await correctDemotions(gh, job, job.pr.headSha).catch((err: unknown) =>
        deps.log?.warn({ err, jobId: job.jobId }, 'could not correct the comment that CI failed'),
      );
    return { draft, ci };
  };
}
