import { BootyError } from '../../errors.js';
import type { CiFailure, CiRead } from '../../events/effect-results.js';
import type { RepoRef } from '../../events/job-events.js';
import type { Logger } from '../../log.js';
import type { EffectImpl } from '../../machines/effect-contract.js';
import type { GitLabClients } from './clients.js';
import { gitlabError, httpStatus, mapped } from './gitlab-errors.js';
import { failingSection } from './job-trace.js';

// CI on GitLab is the commit's pipeline (doc/api/pipelines.md): the newest one on the sha decides.
// A failed pipeline's failed jobs bring their trace cut to the failing section (job-trace.ts), and
// the pipeline is what a re-run retries (POST /pipelines/:id/retry runs its failed jobs again).

export interface CiDeps {
  clients: GitLabClients;
  log?: Logger;
  scrub?: (text: string) => string;
}

type CiState = Omit<CiRead, 'at'>;

interface Pipeline {
  id: number;
  sha: string;
  status: string;
  web_url: string | null;
}

interface Job {
  id: number;
  name: string;
  status: string;
  web_url: string | null;
}

const RUNNING = new Set(['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'scheduled']);
const FAILED = new Set(['failed', 'canceled']);
/** Failing jobs whose traces are read for one reading of CI. */
const TRACES_READ = 3;

export function readCi(deps: CiDeps): EffectImpl<'readCi'> {
  return async ({ job }) => {
    if (!job.pr)
      throw new BootyError('BOOTY_E_GITLAB_PRECONDITION', {
        step: 'readCi',
        jobId: job.jobId,
        reason: 'no merge request was opened',
      });
    return readCiAt(deps.clients, job.repo, job.pr.headSha, deps, job.workspace?.baseSha);
  };
}

const pipelinesOn = (clients: GitLabClients, repo: RepoRef, sha: string) =>
  mapped(
    () =>
      clients.call((gl) =>
        gl.Pipelines.all(clients.project(repo), {
          sha,
          orderBy: 'id',
          sort: 'desc',
          perPage: 20,
          maxPages: 1,
        }),
      ) as Promise<unknown>,
  ) as Promise<Pipeline[]>;

/** CI on one commit; `builtOn` ran CI means nothing here yet is CI not started, not no CI. */
export async function readCiAt(
  clients: GitLabClients,
  repo: RepoRef,
  sha: string,
  deps: CiDeps,
  builtOn?: string | null,
): Promise<CiState> {
  const newest = (await pipelinesOn(clients, repo, sha)).filter((p) => p.sha === sha)[0];
  if (!newest) {
    const expected = builtOn && builtOn !== sha && (await pipelinesOn(clients, repo, builtOn)).length > 0;
    return { sha, state: expected ? 'pending' : 'none', total: 0, failing: [], rerunnable: [] };
  }
  if (RUNNING.has(newest.status)) return { sha, state: 'pending', total: 1, failing: [], rerunnable: [] };
  if (!FAILED.has(newest.status)) return { sha, state: 'passed', total: 1, failing: [], rerunnable: [] };
  const scrub = deps.scrub ?? ((t: string) => t);
  const jobs = (await mapped(() =>
    clients.call((gl) => gl.Jobs.all(clients.project(repo), { pipelineId: newest.id, perPage: 100 })),
  )) as unknown as Job[];
  const failed = jobs.filter((j) => FAILED.has(j.status));
  const failing: CiFailure[] = await Promise.all(
    failed.map(async (j, i) => ({
      name: j.name,
      kind: 'check' as const,
      url: j.web_url,
      detail: scrub(i < TRACES_READ ? await trace(clients, repo, j.id) : '(trace not read: see the job)'),
    })),
  );
  if (!failing.length)
    failing.push({
      name: `pipeline ${newest.id}`,
      kind: 'check',
      url: newest.web_url,
      detail: newest.status,
    });
  return { sha, state: 'failed', total: 1, failing, rerunnable: [newest.id] };
}

async function trace(clients: GitLabClients, repo: RepoRef, jobId: number): Promise<string> {
  try {
    const text = await clients.call((gl) => gl.Jobs.showLog(clients.project(repo), jobId));
    return failingSection(String(text));
  } catch (err) {
    // An erased or expired trace (404, 403) still leaves the job's name and link.
    if ([403, 404, 410].includes(httpStatus(err) ?? 0)) return '';
    throw gitlabError(err);
  }
}

/** Retries each failed pipeline on the head as last read; a pipeline already retrying is left to run. */
export function rerunCi(deps: CiDeps): EffectImpl<'rerunCi'> {
  return async ({ job }) => {
    if (!job.pr)
      throw new BootyError('BOOTY_E_GITLAB_PRECONDITION', {
        step: 'rerunCi',
        jobId: job.jobId,
        reason: 'no merge request was opened',
      });
    const { clients } = deps;
    const runs = job.conversation.ci?.rerunnable ?? [];
    for (const id of runs) {
      const current = (await mapped(() =>
        clients.call((gl) => gl.Pipelines.show(clients.project(job.repo), id)),
      )) as unknown as Pipeline;
      // After a crash the retry may have landed: a pipeline running again is this re-run.
      if (!FAILED.has(current.status)) continue;
      await mapped(() => clients.call((gl) => gl.Pipelines.retry(clients.project(job.repo), id)));
    }
    deps.log?.info({ jobId: job.jobId, runs }, 'retried the failed pipelines');
    return { sha: job.pr.headSha, runs };
  };
}
