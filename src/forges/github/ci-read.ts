import { BootyError } from '../../errors.js';
import type { CiFailure, CiRead } from '../../events/effect-results.js';
import type { RepoRef } from '../../events/job-events.js';
import type { Logger } from '../../log.js';
import type { EffectImpl } from '../../machines/effect-contract.js';
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
    return readCiAt(gh, job.repo, job.pr.headSha, deps, job.workspace?.baseSha);
  };
}

/**
 * CI on one commit. `builtOn` is the commit it was built on (the PR's base, or its head before a
 * round): when that one ran CI, nothing on this commit yet means CI has not started, not that
 * there is none. booty pushes and reads at once, before GitHub has queued a thing.
 */
export async function readCiAt(
  gh: GitHubClient,
  repo: RepoRef,
  sha: string,
  deps: CiDeps,
  builtOn?: string | null,
): Promise<CiState> {
  const where = { owner: repo.owner, repo: repo.name };
  // Whether the base ran CI is asked beside the head's reads, not after them: right after a push
  // the head has nothing yet, and the answer is then needed. Its failure counts only if it is used.
  const baseRan = builtOn && builtOn !== sha ? ranCi(gh, where, builtOn) : null;
  baseRan?.catch(() => {}); // not unhandled when unused; awaited below, it still throws
  const [checks, statuses, actions] = await Promise.all([
    mapped(() =>
      gh.rest.paginate(gh.rest.checks.listForRef, { ...where, ref: sha, filter: 'latest', per_page: 100 }),
    ).then((all) => latestByName(all as CheckRun[])),
    mapped(() => gh.rest.repos.getCombinedStatusForRef({ ...where, ref: sha, per_page: 100 })).then(
      ({ data }) => data.statuses as Status[],
    ),
    actionsRuns(gh, where, sha, deps.log),
  ]);

  const scrub = deps.scrub ?? ((t: string) => t);
  const failedChecks = checks.filter(
    (c) => c.status === 'completed' && FAILED_CONCLUSIONS.has(c.conclusion ?? ''),
  );
  const failedStatuses = statuses.filter((s) => FAILED_STATES.has(s.state));
  // A red matrix fails the same way many times over, and each log can run to megabytes: the first
  // few Actions jobs' logs are read, and the rest say where theirs are.
  const withLog = failedChecks.filter(hasLog).slice(0, LOGS_READ);
  const failing: CiFailure[] = [
    ...(await Promise.all(
      failedChecks.map(async (c) => ({
        name: c.name,
        kind: 'check' as const,
        url: c.html_url ?? c.details_url ?? null,
        detail: scrub(
          !hasLog(c) || withLog.includes(c)
            ? await checkDetail(gh, where, c, scrub)
            : [checkSummary(c), LOG_NOT_READ].filter(Boolean).join('\n'),
        ),
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
  // An Actions run not finished (queued, or re-run a moment ago) may not show its checks yet.
  const pending =
    actions.running ||
    checks.some((c) => c.status !== 'completed') ||
    statuses.some((s) => s.state === 'pending');
  // Nothing is decided while anything runs: a round started on half the results would miss the rest.
  const expected = total === 0 && !pending && baseRan !== null && (await baseRan);
  const state = pending || expected ? 'pending' : total === 0 ? 'none' : failing.length ? 'failed' : 'passed';
  deps.log?.debug({ sha, state, total, failing: failing.length, expected }, 'read CI');
  return { sha, state, total, failing, rerunnable: actions.rerunnable };
}

/**
 * The commit's Actions runs: the finished, failed ones (what a re-run of failed jobs can take), and
 * whether any is still queued or running.
 */
async function actionsRuns(
  gh: GitHubClient,
  where: { owner: string; repo: string },
  sha: string,
  log?: Logger,
): Promise<{ rerunnable: number[]; running: boolean }> {
  try {
    const { data } = await gh.rest.actions.listWorkflowRunsForRepo({
      ...where,
      head_sha: sha,
      per_page: 100,
    });
    const runs = (data.workflow_runs as WorkflowRun[]).filter((r) => r.head_sha === sha);
    const failed = runs.filter((r) => r.status === 'completed' && FAILED_CONCLUSIONS.has(r.conclusion ?? ''));
    return {
      rerunnable: [...new Set(failed.map((r) => r.id))],
      running: runs.some((r) => r.status !== 'completed'),
    };
  } catch (err) {
    // Without Actions access (an App not granted `actions`), CI is still read; nothing is re-run.
    if (!readRefused(err)) throw githubError(err);
    log?.warn({ status: httpStatus(err) }, 'cannot list GitHub Actions runs; no re-run is offered');
    return { rerunnable: [], running: false };
  }
}

/** Whether any check or commit status ever reported on the commit; false for a commit GitHub does not have. */
async function ranCi(
  gh: GitHubClient,
  where: { owner: string; repo: string },
  sha: string,
): Promise<boolean> {
  try {
    const [checks, statuses] = await Promise.all([
      gh.rest.checks.listForRef({ ...where, ref: sha, per_page: 1 }),
      gh.rest.repos.getCombinedStatusForRef({ ...where, ref: sha, per_page: 1 }),
    ]);
    return checks.data.total_count > 0 || statuses.data.total_count > 0;
  } catch (err) {
    if ([404, 422].includes(httpStatus(err) ?? 0)) return false;
    throw githubError(err);
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

/** Failing Actions jobs whose logs are downloaded for one reading of CI. */
export const LOGS_READ = 3;
export const LOG_NOT_READ = `(log not read: booty reads the logs of the first ${LOGS_READ} failing Actions jobs; this one's is at its link)`;

/** An Actions job: its check run has a log to download. */
const hasLog = (check: CheckRun) => check.app?.slug === 'github-actions';

/** The check's own words: its output's title and summary. */
function checkSummary(check: CheckRun): string {
  return [check.output.title, check.output.summary].filter(Boolean).join('\n');
}

/** An Actions job's log cut to the failing step (its check run and its job share an id); else the check's own words. */
async function checkDetail(
  gh: GitHubClient,
  where: { owner: string; repo: string },
  check: CheckRun,
  scrub: (text: string) => string,
): Promise<string> {
  const summary = checkSummary(check);
  if (!hasLog(check)) return summary;
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
