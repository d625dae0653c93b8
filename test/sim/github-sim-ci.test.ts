import { afterEach, describe, expect, it } from 'vitest';
import { ciGreen, ciRed } from '../../sim/github/github-sim-ci-script.js';
import { BRANCH, OWNER, prWorld, REPO } from './pr-world.js';

// The scripted CI on the simulated GitHub, read back over real HTTP as booty reads it: check runs
// and suites, commit statuses, GitHub Actions runs and jobs, a job's log behind a 302, and a re-run
// of the failed jobs; with the webhooks GitHub sends as CI moves.

type World = Awaited<ReturnType<typeof prWorld>>;
let world: World | null = null;
afterEach(async () => {
  if (world) expect(world.sim.problems()).toEqual([]);
  await world?.close();
  world = null;
});

const failure = ciRed({
  job: 'test',
  step: 'Run npm test',
  log: ['> widgets@1.0.0 test', 'FAIL test/add.test.js', '  expected add(-1, 1) to be 0, got 2'],
});

/** One CI run's webhooks, in the order GitHub sends them. */
const CI_RUN = [
  'workflow_run.requested',
  'check_run.created',
  'status',
  'workflow_run.in_progress',
  'check_run.completed',
  'check_suite.completed',
  'workflow_run.completed',
  'status',
];

describe('scripted CI', () => {
  it('goes red on the PR head, then green on a later commit, with the webhooks and records booty reads', async () => {
    world = await prWorld();
    const { sim, hooks, where, booty } = world;
    sim.scriptCi(OWNER, REPO, { branch: BRANCH, heads: [failure, ciGreen()] });
    const pr = await world.openPr();

    expect(hooks.names()).toEqual(['pull_request.opened', ...CI_RUN]);
    expect(hooks.received.every((r) => r.signed)).toBe(true);
    const { data: checks } = await booty.rest.checks.listForRef({ ...where, ref: pr.sha });
    expect(checks.total_count).toBe(1);
    const [check] = checks.check_runs;
    expect(check).toMatchObject({
      name: 'test',
      head_sha: pr.sha,
      status: 'completed',
      conclusion: 'failure',
      app: { slug: 'github-actions', name: 'GitHub Actions' },
      pull_requests: [{ number: pr.number, head: { ref: BRANCH, sha: pr.sha }, base: { ref: 'main' } }],
      output: { title: null, summary: null, annotations_count: 1 },
    });
    const byBranch = await booty.rest.checks.listForRef({ ...where, ref: BRANCH });
    expect(byBranch.data.check_runs.map((c) => c.id)).toEqual([check!.id]);
    const { data: suites } = await booty.rest.checks.listSuitesForRef({ ...where, ref: pr.sha });
    expect(
      suites.check_suites.map((s) => [s.head_branch, s.status, s.conclusion, s.latest_check_runs_count]),
    ).toEqual([[BRANCH, 'completed', 'failure', 1]]);
    const { data: combined } = await booty.rest.repos.getCombinedStatusForRef({ ...where, ref: pr.sha });
    expect(combined).toMatchObject({ state: 'failure', sha: pr.sha, total_count: 1 });
    expect(combined.statuses.map((s) => [s.context, s.state])).toEqual([['ci/simulated', 'failure']]);
    const { data: statuses } = await booty.rest.repos.listCommitStatusesForRef({ ...where, ref: pr.sha });
    expect(statuses.map((s) => s.state)).toEqual(['failure', 'pending']);

    const { data: runs } = await booty.rest.actions.listWorkflowRunsForRepo({ ...where, head_sha: pr.sha });
    expect(runs.total_count).toBe(1);
    const [run] = runs.workflow_runs;
    expect(run).toMatchObject({
      name: 'CI',
      path: '.github/workflows/ci.yml',
      event: 'pull_request',
      head_sha: pr.sha,
      head_branch: BRANCH,
      status: 'completed',
      conclusion: 'failure',
      run_attempt: 1,
      display_title: 'Add add()',
      pull_requests: [{ number: pr.number }],
      check_suite_id: suites.check_suites[0]!.id,
    });
    const { data: jobs } = await booty.rest.actions.listJobsForWorkflowRun({ ...where, run_id: run!.id });
    expect(jobs.jobs.map((j) => [j.id, j.name, j.conclusion])).toEqual([[check!.id, 'test', 'failure']]);
    expect(jobs.jobs[0]!.steps!.map((s) => [s.number, s.name, s.conclusion])).toEqual([
      [1, 'Set up job', 'success'],
      [2, 'Run actions/checkout@v4', 'success'],
      [3, 'Run npm test', 'failure'],
      [4, 'Complete job', 'success'],
    ]);

    const completed = hooks.of('workflow_run', 'completed')[0]!.payload;
    expect(completed.workflow_run).toMatchObject({
      id: run!.id,
      head_sha: pr.sha,
      head_branch: BRANCH,
      conclusion: 'failure',
      pull_requests: [{ number: pr.number, head: { sha: pr.sha } }],
    });
    expect(completed.workflow).toMatchObject({ name: 'CI', path: '.github/workflows/ci.yml' });
    expect(hooks.of('check_suite', 'completed')[0]!.payload.check_suite).toMatchObject({
      head_sha: pr.sha,
      head_branch: BRANCH,
      conclusion: 'failure',
      app: { slug: 'github-actions' },
      pull_requests: [{ number: pr.number }],
    });
    expect(hooks.of('check_run', 'completed')[0]!.payload.check_run).toMatchObject({
      id: check!.id,
      conclusion: 'failure',
      check_suite: { id: suites.check_suites[0]!.id, head_branch: BRANCH },
    });
    expect(hooks.of('status').map((s) => s.payload.state)).toEqual(['pending', 'failure']);
    expect(hooks.of('status')[1]!.payload).toMatchObject({
      sha: pr.sha,
      context: 'ci/simulated',
      branches: [{ name: BRANCH }],
      sender: { login: 'ci-simulator[bot]', type: 'Bot' },
    });

    hooks.clear();
    const fix = await sim.pushCommit(OWNER, REPO, {
      branch: BRANCH,
      files: { 'add.js': 'export const add = (a, b) => a + b; // negatives too\n' },
      author: 'alice',
    });
    expect(hooks.names()).toEqual(['pull_request.synchronize', ...CI_RUN]);
    expect(hooks.received[0]!.payload).toMatchObject({
      before: pr.sha,
      after: fix,
      sender: { login: 'alice' },
    });
    const green = await booty.rest.repos.getCombinedStatusForRef({ ...where, ref: fix });
    const greenChecks = await booty.rest.checks.listForRef({ ...where, ref: fix });
    expect([green.data.state, greenChecks.data.check_runs.map((c) => c.conclusion)]).toEqual([
      'success',
      ['success'],
    ]);
    const { data: head } = await booty.rest.pulls.get({ ...where, pull_number: pr.number });
    expect(head.head.sha).toBe(fix);
  });

  it('serves a job log behind a 302 to a signed link, in GitHub Actions log format', async () => {
    world = await prWorld();
    const { sim, where, booty } = world;
    sim.scriptCi(OWNER, REPO, { branch: BRANCH, heads: [failure] });
    const pr = await world.openPr();
    const [check] = (await booty.rest.checks.listForRef({ ...where, ref: pr.sha })).data.check_runs;

    const redirect = await fetch(`${sim.url}/repos/acme/widgets/actions/jobs/${check!.id}/logs`, {
      headers: { authorization: `token ${sim.tokenFor('booty-bot')}` },
      redirect: 'manual',
    });
    expect(redirect.status).toBe(302);
    const location = redirect.headers.get('location')!;
    expect(location).toMatch(
      new RegExp(`^${sim.url}/actions-results/acme/widgets/jobs/${check!.id}/job-logs\\.txt\\?`),
    );
    // The link needs no token, as GitHub's blob storage does not.
    const served = await fetch(location);
    expect([served.status, served.headers.get('content-type')]).toEqual([200, 'text/plain; charset=utf-8']);
    const bytes = Buffer.from(await served.arrayBuffer());
    // The file starts with a byte-order mark, as GitHub's does (fetch's text() drops it).
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const log = bytes.toString('utf8').slice(1);
    const lines = log.trimEnd().split('\n');
    expect(lines.every((l) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z /.test(l))).toBe(true);
    const text = lines.map((l) => l.slice(29));
    const step = text.indexOf('##[group]Run npm test');
    expect(text.slice(step, step + 8)).toEqual([
      '##[group]Run npm test',
      'npm test',
      'shell: /usr/bin/bash -e {0}',
      '##[endgroup]',
      '> widgets@1.0.0 test',
      'FAIL test/add.test.js',
      '  expected add(-1, 1) to be 0, got 2',
      '##[error]Process completed with exit code 1.',
    ]);
    expect(text).toContain('##[group]Run actions/checkout@v4');
    expect(`\uFEFF${log}`).toBe(sim.jobLog(OWNER, REPO, check!.id));

    // octokit follows the redirect, as booty's client does.
    const followed = await booty.rest.actions.downloadJobLogsForWorkflowRun({ ...where, job_id: check!.id });
    expect(followed.data).toBe(log);
    const forged = await fetch(location.replace(/sig=[^&]+/, 'sig=forged'));
    expect(forged.status).toBe(403);
  });

  it('a flaky check: red on the first run, green when the failed jobs are re-run as attempt 2', async () => {
    world = await prWorld();
    const { sim, hooks, where, booty } = world;
    sim.scriptCi(OWNER, REPO, { branch: BRANCH, heads: [[failure, ciGreen()]] });
    const pr = await world.openPr();
    const [run] = (await booty.rest.actions.listWorkflowRunsForRepo({ ...where, head_sha: pr.sha })).data
      .workflow_runs;
    expect([run!.conclusion, run!.run_attempt]).toEqual(['failure', 1]);
    hooks.clear();

    const rerun = await booty.rest.actions.reRunWorkflowFailedJobs({ ...where, run_id: run!.id });
    expect([rerun.status, rerun.data]).toEqual([201, {}]);
    await sim.settled();

    expect(hooks.names()).toEqual(CI_RUN);
    expect(hooks.of('workflow_run', 'completed')[0]!.payload.workflow_run).toMatchObject({
      id: run!.id,
      run_attempt: 2,
      conclusion: 'success',
      previous_attempt_url: `${sim.url}/repos/acme/widgets/actions/runs/${run!.id}/attempts/1`,
      triggering_actor: { login: 'booty-bot' },
    });
    const { data: again } = await booty.rest.actions.getWorkflowRun({ ...where, run_id: run!.id });
    expect([again.status, again.conclusion, again.run_attempt]).toEqual(['completed', 'success', 2]);
    const latest = await booty.rest.actions.listJobsForWorkflowRun({ ...where, run_id: run!.id });
    const all = await booty.rest.actions.listJobsForWorkflowRun({ ...where, run_id: run!.id, filter: 'all' });
    expect(latest.data.jobs.map((j) => [j.name, j.run_attempt, j.conclusion])).toEqual([
      ['test', 2, 'success'],
    ]);
    expect(all.data.jobs.map((j) => [j.run_attempt, j.conclusion])).toEqual([
      [1, 'failure'],
      [2, 'success'],
    ]);
    const checks = await booty.rest.checks.listForRef({ ...where, ref: pr.sha });
    const everyCheck = await booty.rest.checks.listForRef({ ...where, ref: pr.sha, filter: 'all' });
    expect(checks.data.check_runs.map((c) => c.conclusion)).toEqual(['success']);
    expect(everyCheck.data.total_count).toBe(2);
    const combined = await booty.rest.repos.getCombinedStatusForRef({ ...where, ref: pr.sha });
    expect(combined.data.state).toBe('success');
    const suites = await booty.rest.checks.listSuitesForRef({ ...where, ref: pr.sha });
    expect(suites.data.check_suites.map((s) => s.conclusion)).toEqual(['success']);

    const nothingFailed = await booty.rest.actions
      .reRunWorkflowFailedJobs({ ...where, run_id: run!.id })
      .catch((e) => e.status);
    expect(nothingFailed).toBe(403);
  });

  it('keeps a run in progress until the test completes it, and re-runs red until the next commit', async () => {
    world = await prWorld();
    const { sim, hooks, where, booty } = world;
    sim.scriptCi(OWNER, REPO, { branch: BRANCH, heads: [failure, ciGreen()], completes: 'on-demand' });
    const pr = await world.openPr();

    expect(hooks.names()).toEqual(['pull_request.opened', ...CI_RUN.slice(0, 4)]);
    const pending = await booty.rest.checks.listForRef({ ...where, ref: pr.sha });
    expect(pending.data.check_runs.map((c) => [c.status, c.conclusion])).toEqual([['in_progress', null]]);
    const combined = await booty.rest.repos.getCombinedStatusForRef({ ...where, ref: pr.sha });
    expect(combined.data.state).toBe('pending');
    const noLogYet = await booty.rest.actions
      .downloadJobLogsForWorkflowRun({ ...where, job_id: pending.data.check_runs[0]!.id })
      .catch((e) => e.status);
    expect(noLogYet).toBe(404);

    const done = await sim.completeCi(OWNER, REPO);
    expect(done.map((r) => r.headSha)).toEqual([pr.sha]);
    expect(hooks.names().slice(-4)).toEqual(CI_RUN.slice(4));
    const [run] = sim.workflowRuns(OWNER, REPO);
    expect([run!.status, run!.conclusion]).toEqual(['completed', 'failure']);

    // The head's answer holds for every attempt: a re-run stays red.
    await booty.rest.actions.reRunWorkflowFailedJobs({ ...where, run_id: run!.id });
    await sim.completeCi(OWNER, REPO);
    const after = await booty.rest.actions.getWorkflowRun({ ...where, run_id: run!.id });
    expect([after.data.run_attempt, after.data.conclusion]).toEqual([2, 'failure']);
  });

  it('runs a commit’s own script by hand, over the branch script, as a push without a PR', async () => {
    world = await prWorld();
    const { sim, where, booty } = world;
    const main = await sim.pushCommit(OWNER, REPO, { branch: 'main', files: { 'x.txt': 'x\n' } });
    sim.scriptCi(OWNER, REPO, { branch: 'main', heads: [ciGreen()] });
    sim.scriptCi(OWNER, REPO, { sha: main, heads: [ciRed({ log: ['boom'] })], statusContext: null });
    const run = await sim.runCi(OWNER, REPO, { sha: main });
    expect([run.event, run.headBranch, run.conclusion]).toEqual(['push', 'main', 'failure']);
    const runs = await booty.rest.actions.listWorkflowRunsForRepo({
      ...where,
      branch: 'main',
      status: 'failure',
    });
    expect(runs.data.workflow_runs.map((r) => [r.id, r.pull_requests])).toEqual([[run.id, []]]);
    // No status context: GitHub's combined state for a commit without statuses is pending.
    const combined = await booty.rest.repos.getCombinedStatusForRef({ ...where, ref: main });
    expect([combined.data.state, combined.data.total_count]).toEqual(['pending', 0]);
  });
});

describe('checks and statuses by REST', () => {
  it('takes statuses from anyone who can write, and check runs only from a GitHub App, pages them', async () => {
    world = await prWorld();
    const { sim, where, booty, hooks } = world;
    const pr = await world.openPr();
    hooks.clear();
    const posted = await booty.rest.repos.createCommitStatus({
      ...where,
      sha: pr.sha,
      state: 'error',
      context: 'lint',
      description: 'eslint crashed',
      target_url: 'https://ci.example.test/1',
    });
    expect(posted.status).toBe(201);
    expect(posted.data).toMatchObject({ state: 'error', context: 'lint', creator: { login: 'booty-bot' } });
    const byBranch = await booty.rest.repos
      .createCommitStatus({ ...where, sha: 'main', state: 'success' })
      .catch((e) => [e.status, e.response.data.message]);
    expect(byBranch).toEqual([422, 'No commit found for SHA: main']);
    const { data: combined } = await booty.rest.repos.getCombinedStatusForRef({ ...where, ref: pr.sha });
    expect([combined.state, combined.statuses[0]!.description]).toEqual(['failure', 'eslint crashed']);
    await sim.settled();
    expect(hooks.names()).toEqual(['status']);
    expect(hooks.received[0]!.payload).toMatchObject({ state: 'error', context: 'lint', sha: pr.sha });

    const withToken = await booty.rest.checks
      .create({ ...where, name: 'lint', head_sha: pr.sha })
      .catch((e) => [e.status, e.response.data.message]);
    expect(withToken).toEqual([403, 'You must authenticate via a GitHub App.']);
    expect(sim.checkRuns(OWNER, REPO)).toEqual([]);
  });

  it('lets an App create check runs in its own suite, and pages check runs with a Link header', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const { Octokit } = await import('@octokit/rest');
    const { createAppAuth } = await import('@octokit/auth-app');
    world = await prWorld();
    const { sim, where, booty, hooks } = world;
    const { publicKey, privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    });
    const { appId, installationId } = sim.installApp({ publicKey, account: OWNER, slug: 'linter' });
    const app = new Octokit({
      baseUrl: sim.url,
      authStrategy: createAppAuth,
      auth: { appId, privateKey, installationId },
    });
    const pr = await world.openPr();
    hooks.clear();
    for (const name of ['lint', 'types']) {
      const made = await app.rest.checks.create({ ...where, name, head_sha: pr.sha, status: 'in_progress' });
      expect(made.status).toBe(201);
    }
    const done = await app.rest.checks.create({
      ...where,
      name: 'format',
      head_sha: pr.sha,
      conclusion: 'success',
    });
    expect(done.data).toMatchObject({
      status: 'completed',
      conclusion: 'success',
      app: { id: appId, slug: 'linter' },
    });

    const page = await booty.rest.checks.listForRef({ ...where, ref: pr.sha, per_page: 2 });
    expect([page.data.total_count, page.data.check_runs.length]).toEqual([3, 2]);
    expect(page.headers.link).toContain('rel="next"');
    const every = await booty.paginate(booty.rest.checks.listForRef, { ...where, ref: pr.sha, per_page: 2 });
    expect(every.map((c) => c.name)).toEqual(['lint', 'types', 'format']);
    const suites = await booty.rest.checks.listSuitesForRef({ ...where, ref: pr.sha, app_id: appId });
    expect(suites.data.check_suites.map((s) => [s.app?.slug, s.status])).toEqual([['linter', 'in_progress']]);
    const got = await booty.rest.checks.get({ ...where, check_run_id: done.data.id });
    expect(got.data.name).toBe('format');
    await sim.settled();
    expect(hooks.names()).toEqual(['check_run.created', 'check_run.created', 'check_run.created']);
    expect(hooks.received[0]!.payload.installation).toEqual({
      id: installationId,
      node_id: `MDIz${installationId}`,
    });
  });
});
