import { minimalRepoJson, type Urls, userJson } from './github-sim-json.js';
import { pullMinimalJson } from './github-sim-json-pulls.js';
import type { SimApp, SimRepo } from './github-sim-state.js';
import type {
  SimCheckRun,
  SimCheckSuite,
  SimCommit,
  SimJob,
  SimStatus,
  SimWorkflow,
  SimWorkflowRun,
} from './github-sim-state-ci.js';

// How GitHub's REST API spells CI: check suites and runs, commit statuses, and GitHub Actions'
// workflows, runs and jobs.

/** GitHub Actions is an App like any other to the Checks API; this is its id on github.com. */
export const ACTIONS_APP_ID = 15368;

const apiOf = (u: Urls, repo: SimRepo) => `${u.base}/repos/${repo.owner}/${repo.name}`;
const webOf = (u: Urls, repo: SimRepo) => `${u.base}/${repo.owner}/${repo.name}`;

export function appJson(u: Urls, apps: SimApp[], appId: number) {
  const app = apps.find((a) => a.id === appId);
  const slug = appId === ACTIONS_APP_ID ? 'github-actions' : (app?.slug ?? `app-${appId}`);
  return {
    id: appId,
    slug,
    node_id: `A_kwHO${Buffer.from(String(appId)).toString('base64url')}`,
    owner: userJson(u, appId === ACTIONS_APP_ID ? 'github' : (app?.owner ?? 'simulator')),
    name: appId === ACTIONS_APP_ID ? 'GitHub Actions' : (app?.name ?? slug),
    description: appId === ACTIONS_APP_ID ? 'Automate your workflow from idea to production' : null,
    external_url: appId === ACTIONS_APP_ID ? 'https://help.github.com/en/actions' : `${u.base}/apps/${slug}`,
    html_url: `${u.base}/apps/${slug}`,
    created_at: '2018-07-30T09:30:17Z',
    updated_at: '2018-07-30T09:30:17Z',
    permissions: app?.permissions ?? {
      actions: 'write',
      checks: 'write',
      contents: 'read',
      metadata: 'read',
    },
    events: app?.events ?? [],
  };
}

export function commitJson(c: SimCommit) {
  return {
    id: c.id,
    tree_id: c.treeId,
    message: c.message,
    timestamp: c.timestamp,
    author: c.author,
    committer: c.committer,
  };
}

/** The open PRs whose head is this commit, as check runs and workflow runs list them. */
const pullsAt = (u: Urls, repo: SimRepo, sha: string) =>
  repo.pulls.filter((p) => p.state === 'open' && p.headSha === sha).map((p) => pullMinimalJson(u, repo, p));

export function checkRunJson(u: Urls, repo: SimRepo, apps: SimApp[], run: SimCheckRun) {
  const api = apiOf(u, repo);
  const suite = repo.checkSuites.find((s) => s.id === run.suiteId);
  const job = repo.jobs.find((j) => j.id === run.id);
  return {
    id: run.id,
    head_sha: run.headSha,
    node_id: run.nodeId,
    external_id: run.externalId ?? '',
    url: `${api}/check-runs/${run.id}`,
    html_url: job
      ? `${webOf(u, repo)}/actions/runs/${job.runId}/job/${job.id}`
      : `${webOf(u, repo)}/runs/${run.id}`,
    details_url: run.detailsUrl,
    status: run.status,
    conclusion: run.conclusion,
    started_at: run.startedAt,
    completed_at: run.completedAt,
    output: {
      title: run.output.title,
      summary: run.output.summary,
      text: run.output.text,
      annotations_count: run.output.annotationsCount,
      annotations_url: `${api}/check-runs/${run.id}/annotations`,
    },
    name: run.name,
    check_suite: { id: run.suiteId },
    app: appJson(u, apps, suite?.appId ?? ACTIONS_APP_ID),
    pull_requests: pullsAt(u, repo, run.headSha),
  };
}

export function checkSuiteJson(u: Urls, repo: SimRepo, apps: SimApp[], suite: SimCheckSuite) {
  const api = apiOf(u, repo);
  return {
    id: suite.id,
    node_id: suite.nodeId,
    head_branch: suite.headBranch,
    head_sha: suite.headSha,
    status: suite.status,
    conclusion: suite.conclusion,
    url: `${api}/check-suites/${suite.id}`,
    before: null,
    after: suite.headSha,
    pull_requests: pullsAt(u, repo, suite.headSha),
    app: appJson(u, apps, suite.appId),
    repository: minimalRepoJson(u, repo),
    created_at: suite.createdAt,
    updated_at: suite.updatedAt,
    head_commit: commitJson(suite.headCommit),
    latest_check_runs_count: latestRuns(repo.checkRuns.filter((r) => r.suiteId === suite.id)).length,
    check_runs_url: `${api}/check-suites/${suite.id}/check-runs`,
    rerequestable: true,
    runs_rerequestable: true,
  };
}

/** The most recent check run of each name: what GitHub shows by default (`filter=latest`). */
export function latestRuns(runs: SimCheckRun[]): SimCheckRun[] {
  const byName = new Map<string, SimCheckRun>();
  for (const r of runs) {
    const known = byName.get(r.name);
    if (!known || r.id > known.id) byName.set(r.name, r);
  }
  return runs.filter((r) => byName.get(r.name) === r);
}

export function statusJson(u: Urls, repo: SimRepo, s: SimStatus) {
  const creator = userJson(u, s.creator);
  return {
    url: `${apiOf(u, repo)}/statuses/${s.sha}`,
    avatar_url: creator.avatar_url,
    id: s.id,
    node_id: s.nodeId,
    state: s.state,
    description: s.description,
    target_url: s.targetUrl,
    context: s.context,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
    creator,
  };
}

/** GitHub's combined state: failure over pending over success; no statuses at all is pending. */
export function combinedStatusJson(u: Urls, repo: SimRepo, sha: string) {
  const latest = new Map<string, SimStatus>();
  for (const s of repo.statuses.filter((x) => x.sha === sha)) latest.set(s.context, s);
  const statuses = [...latest.values()];
  const states = statuses.map((s) => s.state);
  const state = states.some((s) => s === 'failure' || s === 'error')
    ? 'failure'
    : states.length === 0 || states.includes('pending')
      ? 'pending'
      : 'success';
  const api = apiOf(u, repo);
  return {
    state,
    statuses: statuses.map((s) => {
      const { creator: _, ...rest } = statusJson(u, repo, s);
      return rest;
    }),
    sha,
    total_count: statuses.length,
    repository: minimalRepoJson(u, repo),
    commit_url: `${api}/commits/${sha}`,
    url: `${api}/commits/${sha}/status`,
  };
}

export function workflowJson(u: Urls, repo: SimRepo, w: SimWorkflow) {
  const api = apiOf(u, repo);
  return {
    id: w.id,
    node_id: w.nodeId,
    name: w.name,
    path: w.path,
    state: 'active',
    created_at: w.createdAt,
    updated_at: w.createdAt,
    url: `${api}/actions/workflows/${w.id}`,
    html_url: `${webOf(u, repo)}/blob/${repo.defaultBranch}/${w.path}`,
    badge_url: `${webOf(u, repo)}/workflows/${encodeURIComponent(w.name)}/badge.svg`,
  };
}

export function workflowRunJson(u: Urls, repo: SimRepo, run: SimWorkflowRun) {
  const api = apiOf(u, repo);
  const url = `${api}/actions/runs/${run.id}`;
  const workflow = repo.workflows.find((w) => w.id === run.workflowId);
  const suite = repo.checkSuites.find((s) => s.id === run.suiteId);
  return {
    id: run.id,
    name: workflow?.name ?? 'CI',
    node_id: run.nodeId,
    check_suite_id: run.suiteId,
    check_suite_node_id: suite?.nodeId ?? '',
    head_branch: run.headBranch,
    head_sha: run.headSha,
    path: workflow?.path ?? '',
    display_title: run.displayTitle,
    run_number: run.runNumber,
    event: run.event,
    status: run.status,
    conclusion: run.conclusion,
    workflow_id: run.workflowId,
    url,
    html_url: `${webOf(u, repo)}/actions/runs/${run.id}`,
    pull_requests: pullsAt(u, repo, run.headSha),
    created_at: run.createdAt,
    updated_at: run.updatedAt,
    actor: userJson(u, run.actor),
    triggering_actor: userJson(u, run.triggeringActor),
    run_attempt: run.attempt,
    referenced_workflows: [],
    run_started_at: run.runStartedAt,
    jobs_url: `${url}/jobs`,
    logs_url: `${url}/logs`,
    check_suite_url: `${api}/check-suites/${run.suiteId}`,
    artifacts_url: `${url}/artifacts`,
    cancel_url: `${url}/cancel`,
    rerun_url: `${url}/rerun`,
    previous_attempt_url: run.attempt > 1 ? `${url}/attempts/${run.attempt - 1}` : null,
    workflow_url: `${api}/actions/workflows/${run.workflowId}`,
    head_commit: commitJson(run.headCommit),
    repository: minimalRepoJson(u, repo),
    head_repository: minimalRepoJson(u, repo),
    head_repository_id: repo.id,
  };
}

export function jobJson(u: Urls, repo: SimRepo, job: SimJob) {
  const api = apiOf(u, repo);
  const run = repo.workflowRuns.find((r) => r.id === job.runId);
  const workflow = repo.workflows.find((w) => w.id === run?.workflowId);
  return {
    id: job.id,
    run_id: job.runId,
    run_url: `${api}/actions/runs/${job.runId}`,
    run_attempt: job.attempt,
    node_id: job.nodeId,
    head_sha: run?.headSha ?? '',
    head_branch: run?.headBranch ?? null,
    workflow_name: workflow?.name ?? null,
    url: `${api}/actions/jobs/${job.id}`,
    html_url: `${webOf(u, repo)}/actions/runs/${job.runId}/job/${job.id}`,
    status: job.status,
    conclusion: job.conclusion,
    created_at: job.createdAt,
    started_at: job.startedAt ?? job.createdAt,
    completed_at: job.completedAt,
    name: job.name,
    steps: job.steps.map((s) => ({
      name: s.name,
      status: s.status,
      conclusion: s.status === 'completed' ? s.conclusion : null,
      number: s.number,
      started_at: s.startedAt,
      completed_at: s.completedAt,
    })),
    check_run_url: `${api}/check-runs/${job.id}`,
    labels: ['ubuntu-latest'],
    runner_id: job.startedAt ? 1 : null,
    runner_name: job.startedAt ? 'GitHub Actions 1' : null,
    runner_group_id: job.startedAt ? 2 : null,
    runner_group_name: job.startedAt ? 'GitHub Actions' : null,
  };
}
