import { BootyError } from '../../errors.js';
import type { EffectImpl } from '../../machines/effect-contract.js';
import type { JobContext } from '../../machines/job-context.js';
import { demotedMarker } from '../markers.js';
import type { CiDeps } from './ci-read.js';
import type { GitHubClient } from './clients.js';
import { mapped } from './github-errors.js';
import { issueThread, postOnce } from './marked-comment.js';

// Red CI on a PR that is ready for review sends it back to draft, so nobody merges it by mistake,
// and says so once on the PR: after a crash the conversion is a no-op and the comment is found.
// When CI passes and booty makes it ready again, that comment turned out wrong: it is edited to
// say so, not left standing.

const TO_DRAFT = `mutation BootyConvertToDraft($id: ID!) {
  convertPullRequestToDraft(input: { pullRequestId: $id }) { pullRequest { isDraft } }
}`;

export function demotePr(deps: CiDeps): EffectImpl<'demotePr'> {
  return async ({ job }) => {
    const pr = job.pr;
    if (!pr) {
      throw new BootyError('BOOTY_E_GITHUB_PRECONDITION', {
        step: 'demotePr',
        jobId: job.jobId,
        reason: 'no pull request was opened',
      });
    }
    const gh = await deps.clients.forJob(job);
    const where = { owner: job.repo.owner, repo: job.repo.name };
    const { data: current } = await mapped(() => gh.rest.pulls.get({ ...where, pull_number: pr.number }));
    if (current.state === 'closed') {
      throw new BootyError('BOOTY_E_GITHUB_PRECONDITION', {
        step: 'demotePr',
        jobId: job.jobId,
        reason: `pull request #${pr.number} was closed`,
      });
    }
    if (!current.draft) await mapped(() => gh.graphql(TO_DRAFT, { id: current.node_id }));
    const sha = job.conversation.ci?.sha ?? pr.headSha;
    const body = (deps.scrub ?? ((t: string) => t))(demotedBody(job, sha));
    const posted = await postOnce(gh, job.repo, pr.number, demotedMarker(job.jobId, sha), body);
    deps.log?.info({ jobId: job.jobId, pr: pr.number, sha, posted }, 'turned the pull request back to draft');
    return { draft: true };
  };
}

function demotedBody(job: JobContext, sha: string): string {
  const names = [...new Set((job.conversation.ci?.failing ?? []).map((f) => `\`${f.name}\``))];
  const failing = names.length ? ` (${names.join(', ')})` : '';
  return `CI failed on ${sha.slice(0, 7)}${failing}, so booty turned this pull request back to draft until it passes.`;
}

const CORRECTED = '<!-- booty:corrected -->';

/**
 * The job's "CI failed … back to draft" comments, struck through and corrected once the pull request
 * is ready again with CI passing on `sha`. Edited once (the CORRECTED marker); returns how many.
 */
export async function correctDemotions(
  gh: GitHubClient,
  job: Pick<JobContext, 'jobId' | 'repo' | 'pr'>,
  sha: string,
): Promise<number> {
  if (!job.pr) return 0;
  const mine = `<!-- booty:demoted job=${job.jobId} `;
  const stale = (await issueThread(gh, job.repo, job.pr.number)).filter(
    (c) => (c.body ?? '').includes(mine) && !(c.body ?? '').includes(CORRECTED),
  );
  for (const c of stale) {
    const body = c.body ?? '';
    const markers = body.match(/<!-- booty:[^>]*-->/g) ?? [];
    const said = body.replace(/<!-- booty:[^>]*-->\n?/g, '').trim();
    await mapped(() =>
      gh.rest.issues.updateComment({
        owner: job.repo.owner,
        repo: job.repo.name,
        comment_id: c.id,
        body: `${[...markers, CORRECTED].join('\n')}\n~~${said}~~\n\nCI passed on ${sha.slice(0, 7)}, and booty made this pull request ready for review again.`,
      }),
    );
  }
  return stale.length;
}
