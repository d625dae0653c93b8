import { BootyError } from '../../errors.js';
import type { DependencyChange, PullRequest } from '../../events/effect-results.js';
import type { Logger } from '../../log.js';
import type { EffectImpl } from '../../machines/effect-contract.js';
import type { EffectInput, JobContext } from '../../machines/job-context.js';
import type { SandboxChoice } from '../../sandbox/sandbox-mode.js';
import { prTitle, renderPrBody } from '../../views/pr-body.js';
import { demotedMarker } from '../markers.js';
import { isDraftTitle } from './classify.js';
import type { GitLabClients } from './clients.js';
import { gitlabError, mapped } from './gitlab-errors.js';
import { postOnce } from './notes.js';
import { readCiAt } from './pipelines.js';

// The job's draft merge request, its promotion and its demotion. GitLab marks a draft by the
// title's `Draft:` prefix (doc/user/project/merge_requests/drafts.md; the API's `draft` field is
// read-only): the MR is opened with it, made ready by a title without it, and sent back with it.
// Each looks before it acts: an open MR from the job's branch is reused, never duplicated.

export interface GitLabEffectDeps {
  clients: GitLabClients;
  log?: Logger;
  scrub?: (text: string) => string;
  sandbox?: SandboxChoice;
  now?: () => number;
}

export interface GlMergeRequest {
  id: number;
  iid: number;
  web_url: string;
  title: string;
  description: string | null;
  state: string;
  draft?: boolean;
  sha: string | null;
  source_branch: string;
}

const DRAFT = 'Draft: ';
const isDraft = (mr: GlMergeRequest) => mr.draft ?? isDraftTitle(mr.title);
const withoutDraft = (title: string) =>
  title.replace(/^\s*(\[draft\]|\(draft\)|draft:|draft\s-\s|wip:|\[wip\])\s*/i, '');

const precondition = (step: string, job: Pick<JobContext, 'jobId'>, reason: string) =>
  new BootyError('BOOTY_E_GITLAB_PRECONDITION', { step, jobId: job.jobId, reason });

export async function findOpenMr(
  clients: GitLabClients,
  job: Pick<JobContext, 'repo' | 'branch'>,
): Promise<GlMergeRequest | null> {
  const list = (await mapped(() =>
    clients.call((gl) =>
      gl.MergeRequests.all({
        projectId: clients.project(job.repo),
        state: 'opened',
        sourceBranch: job.branch,
        perPage: 10,
        maxPages: 1,
      }),
    ),
  )) as unknown as GlMergeRequest[];
  return list[0] ?? null;
}

const showMr = (clients: GitLabClients, job: Pick<JobContext, 'repo'>, iid: number) =>
  mapped(
    () => clients.call((gl) => gl.MergeRequests.show(clients.project(job.repo), iid)) as Promise<unknown>,
  ) as Promise<GlMergeRequest>;

const editMr = (
  clients: GitLabClients,
  job: Pick<JobContext, 'repo'>,
  iid: number,
  change: { title?: string; description?: string },
) =>
  mapped(
    () =>
      clients.call((gl) => gl.MergeRequests.edit(clients.project(job.repo), iid, change)) as Promise<unknown>,
  ) as Promise<GlMergeRequest>;

const result = (mr: GlMergeRequest, headSha: string, created: boolean): Omit<PullRequest, 'at'> => ({
  number: mr.iid,
  url: mr.web_url,
  nodeId: `gid://gitlab/MergeRequest/${mr.id}`,
  draft: isDraft(mr),
  headSha,
  created,
});

export function openDraftMr(deps: GitLabEffectDeps) {
  return async (
    input: EffectInput,
    pushed: { headSha: string; dependencies?: DependencyChange[]; branchCreated?: boolean },
  ): Promise<Omit<PullRequest, 'at'>> => {
    const { job } = input;
    const { clients } = deps;
    if (!job.workspace) throw precondition('openPr', job, 'no workspace was prepared');
    const description = (deps.scrub ?? ((t: string) => t))(
      renderPrBody(job, { dependencies: pushed.dependencies ?? [], sandbox: deps.sandbox }),
    );
    const existing = pushed.branchCreated ? null : await findOpenMr(clients, job);
    if (existing) {
      if (existing.description !== description) await editMr(clients, job, existing.iid, { description });
      deps.log?.info(
        { jobId: job.jobId, pr: existing.iid },
        'reusing the open merge request from the job branch',
      );
      return result(existing, pushed.headSha, false);
    }
    try {
      const target = job.workspace.defaultBranch;
      const mr = (await clients.call((gl) =>
        gl.MergeRequests.create(clients.project(job.repo), job.branch, target, `${DRAFT}${prTitle(job)}`, {
          description,
          removeSourceBranch: true,
        }),
      )) as unknown as GlMergeRequest;
      deps.log?.info({ jobId: job.jobId, pr: mr.iid }, 'opened a draft merge request');
      return result(mr, pushed.headSha, true);
    } catch (err) {
      const mappedErr = gitlabError(err);
      // 409: "Another open merge request already exists for this source branch".
      const exists = mappedErr instanceof BootyError && /already exists/i.test(mappedErr.message);
      const ambiguous = mappedErr instanceof BootyError && mappedErr.retryable;
      if (exists || ambiguous) {
        const again = await findOpenMr(clients, job);
        if (again) return result(again, pushed.headSha, !exists);
      }
      throw mappedErr;
    }
  };
}

/** Ready once CI lets it (green or none), as on GitHub; an MR already ready counts as done. */
export function promoteMr(deps: GitLabEffectDeps): EffectImpl<'promotePr'> {
  return async ({ job }) => {
    const { clients } = deps;
    if (!job.pr) throw precondition('promotePr', job, 'no merge request was opened');
    if (job.settings.selfModification) return { draft: true };
    const [current, ciRead] = await Promise.all([
      showMr(clients, job, job.pr.number),
      readCiAt(clients, job.repo, job.pr.headSha, deps, job.workspace?.baseSha),
    ]);
    if (current.state !== 'opened')
      throw precondition('promotePr', job, `merge request !${current.iid} is ${current.state}`);
    const ci = { ...ciRead, at: (deps.now ?? Date.now)() };
    if (!isDraft(current)) return { draft: false, ci };
    const moved = current.sha !== null && current.sha !== job.pr.headSha;
    if (ci.state === 'pending' || ci.state === 'failed' || moved) {
      deps.log?.info({ jobId: job.jobId, pr: job.pr.number, ci: ci.state }, 'the merge request stays draft');
      return { draft: true, ci };
    }
    const after = await editMr(clients, job, current.iid, { title: withoutDraft(current.title) });
    deps.log?.info({ jobId: job.jobId, pr: job.pr.number }, 'marked the merge request ready');
    return { draft: isDraft(after), ci };
  };
}

/** Red CI sends a ready MR back to draft, and says so once on the MR. */
export function demoteMr(deps: GitLabEffectDeps): EffectImpl<'demotePr'> {
  return async ({ job }) => {
    const { clients } = deps;
    const pr = job.pr;
    if (!pr) throw precondition('demotePr', job, 'no merge request was opened');
    const current = await showMr(clients, job, pr.number);
    if (current.state !== 'opened')
      throw precondition('demotePr', job, `merge request !${pr.number} is ${current.state}`);
    if (!isDraft(current)) await editMr(clients, job, pr.number, { title: `${DRAFT}${current.title}` });
    const sha = job.conversation.ci?.sha ?? pr.headSha;
    const names = [...new Set((job.conversation.ci?.failing ?? []).map((f) => `\`${f.name}\``))];
    const failing = names.length ? ` (${names.join(', ')})` : '';
    const body = `CI failed on ${sha.slice(0, 7)}${failing}, so booty turned this merge request back to draft until it passes.`;
    await postOnce(
      clients,
      job.repo,
      { kind: 'merge_requests', iid: pr.number },
      demotedMarker(job.jobId, sha),
      (deps.scrub ?? ((t: string) => t))(body),
    );
    return { draft: true };
  };
}
