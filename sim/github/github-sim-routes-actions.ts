import { latestJobs, rerunFailedJobs } from './github-sim-ci.js';
import { jobJson, workflowRunJson } from './github-sim-json-ci.js';
import type { OperationId } from './github-sim-operations.js';
import {
  type Handler,
  message,
  notFound,
  pagedIn,
  type RouteContext,
  repoOf,
} from './github-sim-route-kit.js';
import { Conclusion } from './github-sim-state-ci.js';

// GitHub Actions' runs and jobs: listed newest first and filtered as GitHub filters them, a job's
// log as a redirect to a signed URL, and a re-run of the failed jobs as the run's next attempt.

/** The `status` filter takes a conclusion too (GitHub lists stale among them). */
const CONCLUSIONS = new Set<string>(Conclusion.options);

function runOf(ctx: RouteContext) {
  const repo = repoOf(ctx);
  const run = repo?.workflowRuns.find((r) => r.id === ctx.path.run_id);
  return repo && run ? { repo, run } : null;
}

export const actionsHandlers = {
  'actions/list-workflow-runs-for-repo': (ctx) => {
    const repo = repoOf(ctx);
    if (!repo) return notFound(ctx);
    const q = ctx.query;
    const runs = repo.workflowRuns
      .filter((r) => !q.head_sha || r.headSha === q.head_sha)
      .filter((r) => !q.branch || r.headBranch === q.branch)
      .filter((r) => !q.event || r.event === q.event)
      .filter((r) => !q.actor || r.actor === q.actor)
      .filter((r) => !q.check_suite_id || r.suiteId === q.check_suite_id)
      .filter(
        (r) => !q.status || (CONCLUSIONS.has(q.status) ? r.conclusion === q.status : r.status === q.status),
      )
      .sort((a, b) => b.id - a.id);
    return pagedIn(
      ctx,
      'workflow_runs',
      runs.map((r) => workflowRunJson(ctx.urls, repo, r)),
    );
  },

  'actions/get-workflow-run': (ctx) => {
    const found = runOf(ctx);
    return found ? { status: 200, body: workflowRunJson(ctx.urls, found.repo, found.run) } : notFound(ctx);
  },

  'actions/list-jobs-for-workflow-run': (ctx) => {
    const found = runOf(ctx);
    if (!found) return notFound(ctx);
    const { repo, run } = found;
    const jobs =
      ctx.query.filter === 'all' ? repo.jobs.filter((j) => j.runId === run.id) : latestJobs(repo, run);
    return pagedIn(
      ctx,
      'jobs',
      jobs.map((j) => jobJson(ctx.urls, repo, j)),
    );
  },

  'actions/get-job-for-workflow-run': (ctx) => {
    const repo = repoOf(ctx);
    const job = repo?.jobs.find((j) => j.id === ctx.path.job_id);
    return repo && job ? { status: 200, body: jobJson(ctx.urls, repo, job) } : notFound(ctx);
  },

  'actions/download-job-logs-for-workflow-run': (ctx) => {
    const repo = repoOf(ctx);
    const job = repo?.jobs.find((j) => j.id === ctx.path.job_id);
    // A job's log is written when it ends; before that there is none to download.
    if (!repo || !job || job.status !== 'completed') return notFound(ctx);
    return {
      status: 302,
      headers: { location: ctx.world.logLinks.link(ctx.urls.base, repo.owner, repo.name, job.id, ctx.now) },
    };
  },

  'actions/re-run-workflow-failed-jobs': (ctx) => {
    const found = runOf(ctx);
    if (!found) return notFound(ctx);
    const outcome = rerunFailedJobs(ctx.world, found.repo, found.run, ctx.login);
    return outcome.ok ? { status: 201, body: {} } : message(403, outcome.message, ctx.documentationUrl);
  },
} satisfies Partial<Record<OperationId, Handler>>;
