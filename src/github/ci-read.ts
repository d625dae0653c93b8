import { BootyError } from '../errors.js';
import type { CiFailure, CiRead } from '../events/effect-results.js';
import type { RepoRef } from '../events/job-events.js';
import type { Logger } from '../log.js';
import type { EffectImpl } from '../machines/effect-contract.js';
import { failingStepLog } from './ci-log.js';
import type { GitHubClient, GitHubClients } from './clients.js';
import { githubError, httpStatus, mapped } from './github-errors.js';

// CI on the PR's head, summed up the way a reviewer reads the PR's checks box: every check run
// (the latest of each name), every commit status, and which GitHub Actions runs failed and can be
// re-run. A failing Actions job brings its log, cut to the step that failed, so the next round
// (and the progress comment) can say why without anyone opening the Actions page.

export interface CiDeps {
  clients: GitHubClients;
  log?: Logger;
  /** Removes secrets before anything is published. */
  scrub?: (text: string) => string;
}

export type CiState = Omit<CiRead, 'at'>;

const FAILED_CONCLUSIONS = new Set([
  'failure',
  'timed_out',
  'cancelled',
  'action_required',
  'startup_failure',
]);
const FAILED_STATES = new Set(['failure', 'error']);

interface CheckRun {
  id: number;
  name: string;
  status: string;
  conclusion: string | null;
  html_url: string | null;
  details_url?: string | null;
  output: { title: string | null; summary: string | null };
  app: { id?: number; slug?: string } | null;
}

interface Status {
  context: string;
  state: string;
  description: string | null;
  target_url: string | null;
}

interface WorkflowRun {
  id: number;
  head_sha: string;
  status: string | null;
  conclusion: string | null;
}

/** Reads CI on the job's PR head. */
export function readCi(deps: CiDeps): EffectImpl<'readCi'> {
  return async ({ job }) => {
    if (!job.pr) {
      throw new BootyError('BOOTY_E_GITHUB_PRECONDITION', {
        step: 'readCi',
        jobId: job.jobId,
        reason: 'no pull request was opened',
      });
    }
    const gh = await deps.clients.forJob(job);
    return readCiAt(gh, job.repo, job.pr.headSha, deps);
  };
}

/** CI on one commit. */
export async function readCiAt(gh: GitHubClient, repo: RepoRef, sha: string, deps: CiDeps): Promise<CiState> {
  const where = { owner: repo.owner, repo: repo.name };
  const [checks, statuses, runs] = await Promise.all([
    mapped(() =>
      gh.rest.paginate(gh.rest.checks.listForRef, { ...where, ref: sha, filter: 'latest', per_page: 100 }),
    ).then((all) => latestByName(all as CheckRun[])),
    mapped(() => gh.rest.repos.getCombinedStatusForRef({ ...where, ref: sha, per_page: 100 })).then(
      ({ data }) => data.statuses as Status[],
    ),
    failedRuns(gh, where, sha, deps.log),
  ]);

  const scrub = deps.scrub ?? ((t: string) => t);
  const failedChecks = checks.filter(
    (c) => c.status === 'completed' && FAILED_CONCLUSIONS.has(c.conclusion ?? ''),
  );
  const failedStatuses = statuses.filter((s) => FAILED_STATES.has(s.state));
  const failing: CiFailure[] = [
    ...(await Promise.all(
      failedChecks.map(async (c) => ({
        name: c.name,
        kind: 'check' as const,
        url: c.html_url ?? c.details_url ?? null,
        detail: scrub(await checkDetail(gh, where, c, scrub)),
      })),
    )),
    ...failedStatuses.map((s) => ({
      name: s.context,
      kind: 'status' as const,
      url: s.target_url,
      detail: scrub(s.description ?? ''),
    })),
  ];

  const total = checks.length + statuses.length;
  const pending = checks.some((c) => c.status !== 'completed') || statuses.some((s) => s.state === 'pending');
  // Nothing is decided while anything runs: a round started on half the results would miss the rest.
  const state = total === 0 ? 'none' : pending ? 'pending' : failing.length ? 'failed' : 'passed';
  deps.log?.debug({ sha, state, total, failing: failing.length }, 'read CI');
  return { sha, state, total, failing, rerunnable: runs };
}

/** Ids of the commit's finished, failed Actions runs: what a re-run of failed jobs can take. */
async function failedRuns(
  gh: GitHubClient,
  where: { owner: string; repo: string },
  sha: string,
  log?: Logger,
): Promise<number[]> {
  try {
    const { data } = await gh.rest.actions.listWorkflowRunsForRepo({
      ...where,
      head_sha: sha,
      per_page: 100,
    });
    const runs = (data.workflow_runs as WorkflowRun[]).filter(
      (r) => r.head_sha === sha && r.status === 'completed' && FAILED_CONCLUSIONS.has(r.conclusion ?? ''),
    );
    return [...new Set(runs.map((r) => r.id))];
  } catch (err) {
    // Without Actions access (an App not granted `actions`), CI is still read; nothing is re-run.
    if (!readRefused(err)) throw githubError(err);
    log?.warn({ status: httpStatus(err) }, 'cannot list GitHub Actions runs; no re-run is offered');
    return [];
  }
}

/** A refusal that will not change on retry: no access, or nothing there (expired logs are 410). */
const readRefused = (err: unknown) => [403, 404, 410].includes(httpStatus(err) ?? 0);

/** GitHub lists every re-run of a check; the newest of each name (and App) is the one that counts. */
function latestByName(runs: CheckRun[]): CheckRun[] {
  const latest = new Map<string, CheckRun>();
  for (const run of runs) {
    const key = `${run.app?.id ?? ''}:${run.name}`;
    const known = latest.get(key);
    if (!known || run.id > known.id) latest.set(key, run);
  }
  return [...latest.values()];
}

/** An Actions job's log cut to the failing step (its check run and its job share an id); else the check's own words. */
async function checkDetail(
  gh: GitHubClient,
  where: { owner: string; repo: string },
  check: CheckRun,
  scrub: (text: string) => string,
): Promise<string> {
  const summary = [check.output.title, check.output.summary].filter(Boolean).join('\n');
  if (check.app?.slug !== 'github-actions') return summary;
  try {
    // GitHub answers with a 302 to the log's storage; octokit's fetch follows it.
    const { data } = await gh.rest.actions.downloadJobLogsForWorkflowRun({ ...where, job_id: check.id });
    return failingStepLog(scrub(asText(data))) || summary;
  } catch (err) {
    // Logs expire (410), are not there yet (404) or need `actions` access: the summary still says something.
    if (!readRefused(err)) throw githubError(err);
    return summary;
  }
}

function asText(data: unknown): string {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  if (ArrayBuffer.isView(data))
    return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8');
  return String(data ?? '');
}
