import { addCheckRun, addStatus, overall, settleSuite, suiteFor } from './github-sim-checks.js';
import { emitCheckRun, emitCheckSuite, emitStatus, emitWorkflowRun } from './github-sim-ci-events.js';
import { planFor } from './github-sim-ci-script.js';
import { readCommit } from './github-sim-git-objects.js';
import { githubTime } from './github-sim-json.js';
import { ACTIONS_APP_ID } from './github-sim-json-ci.js';
import { nodeId, type SimRepo } from './github-sim-state.js';
import type { CiJob, SimJob, SimJobStep, SimWorkflowRun } from './github-sim-state-ci.js';
import { bareOf, type SimWorld } from './github-sim-world.js';

// The scripted CI, run as GitHub Actions runs a workflow: a run with one job per scripted job,
// each job the check run of the same id in the Actions suite for the commit, and (when the script
// says so) a commit status beside them. A run is queued, then in progress, then completed, each
// with its webhooks; a re-run of failed jobs is the run's next attempt, with the script's next answer.

const STATUS_CREATOR = 'ci-simulator[bot]';

/** Starts the scripted workflow for a commit; null when no script answers for it. */
export async function startCi(
  world: SimWorld,
  repo: SimRepo,
  input: { sha: string; branch: string; event: string; actor: string; title: string },
): Promise<SimWorkflowRun | null> {
  const found = planFor(repo, input.sha, input.branch);
  if (!found) return null;
  const { script, plan } = found;
  let workflow = repo.workflows.find((w) => w.path === script.workflow.path);
  if (!workflow) {
    const id = world.store.nextId();
    workflow = { id, nodeId: nodeId('W', id), ...script.workflow, createdAt: githubTime() };
    repo.workflows.push(workflow);
  }
  const suite = await suiteFor(world, repo, ACTIONS_APP_ID, input.sha, input.branch);
  const id = world.store.nextId();
  const now = githubTime();
  const run: SimWorkflowRun = {
    id,
    nodeId: nodeId('WFR', id),
    workflowId: workflow.id,
    suiteId: suite.id,
    runNumber: repo.nextRunNumber++,
    attempt: 1,
    event: input.event,
    headSha: input.sha,
    headBranch: input.branch,
    headCommit: await readCommit(bareOf(world, repo), input.sha),
    displayTitle: input.title,
    actor: input.actor,
    triggeringActor: input.actor,
    status: 'queued',
    conclusion: null,
    plan,
    completes: script.completes,
    statusContext: script.statusContext,
    createdAt: now,
    updatedAt: now,
    runStartedAt: now,
  };
  repo.workflowRuns.push(run);
  await queueAttempt(
    world,
    repo,
    run,
    answerFor(run).jobs.map((j) => j.name),
  );
  return run;
}

/** The script's answer for the run's current attempt. */
const answerFor = (run: SimWorkflowRun) => run.plan[Math.min(run.attempt, run.plan.length) - 1]!;

/** Queues the attempt's jobs, announces them, starts them, and finishes them if the script says at once. */
async function queueAttempt(world: SimWorld, repo: SimRepo, run: SimWorkflowRun, jobNames: string[]) {
  const suite = repo.checkSuites.find((s) => s.id === run.suiteId)!;
  const web = `${world.urls.base}/${repo.owner}/${repo.name}`;
  const jobs: SimJob[] = jobNames.map((name) => {
    const id = world.store.nextId();
    return {
      id,
      nodeId: nodeId('CR', id),
      runId: run.id,
      attempt: run.attempt,
      name,
      status: 'queued',
      conclusion: null,
      steps: [],
      createdAt: githubTime(),
      startedAt: null,
      completedAt: null,
    };
  });
  repo.jobs.push(...jobs);
  const checks = jobs.map((job) =>
    addCheckRun(world, repo, suite, {
      id: job.id,
      name: job.name,
      status: 'queued',
      conclusion: null,
      detailsUrl: `${web}/actions/runs/${run.id}/job/${job.id}`,
      externalId: job.nodeId,
    }),
  );
  settleSuite(repo, suite);
  const status = postStatus(world, repo, run, 'pending');
  world.store.save();
  await emitWorkflowRun(world, repo, run, 'requested');
  for (const check of checks) await emitCheckRun(world, repo, check, 'created', run.triggeringActor);
  if (status) await emitStatus(world, repo, status);

  // The runner picks the jobs up at once: in progress, each step waiting its turn.
  run.status = 'in_progress';
  run.updatedAt = githubTime();
  for (const job of jobs) {
    const spec = answerFor(run).jobs.find((j) => j.name === job.name);
    job.status = 'in_progress';
    job.startedAt = githubTime();
    job.steps = stepsOf(spec);
    const check = checks.find((c) => c.id === job.id)!;
    check.status = 'in_progress';
    check.startedAt = job.startedAt;
  }
  settleSuite(repo, suite);
  world.store.save();
  await emitWorkflowRun(world, repo, run, 'in_progress');
  if (run.completes === 'at-once') await completeRun(world, repo, run);
}

/** GitHub's own first and last steps around the scripted ones; nothing runs after a failure. */
function stepsOf(spec: CiJob | undefined): SimJobStep[] {
  const scripted = spec?.steps ?? [{ name: 'Run npm test', conclusion: 'success' as const, log: [] }];
  const all = [{ name: 'Set up job', conclusion: 'success' as const, log: [] }, ...scripted];
  let failed = false;
  const steps = all.map((s, i) => {
    const conclusion = failed ? ('skipped' as const) : s.conclusion;
    failed ||= s.conclusion === 'failure';
    return { ...s, conclusion, number: i + 1, status: 'queued' as const, startedAt: null, completedAt: null };
  });
  steps.push({
    name: 'Complete job',
    conclusion: 'success',
    log: [],
    number: steps.length + 1,
    status: 'queued',
    startedAt: null,
    completedAt: null,
  });
  return steps;
}

/** Finishes the run's current attempt by its script, and sends the completion webhooks. */
export async function completeRun(world: SimWorld, repo: SimRepo, run: SimWorkflowRun) {
  if (run.status === 'completed') return;
  const suite = repo.checkSuites.find((s) => s.id === run.suiteId)!;
  const finishing = repo.jobs.filter((j) => j.runId === run.id && j.status !== 'completed');
  const now = githubTime();
  for (const job of finishing) {
    for (const step of job.steps) {
      step.status = 'completed';
      step.startedAt = now;
      step.completedAt = now;
    }
    job.status = 'completed';
    job.conclusion = job.steps.some((s) => s.conclusion === 'failure') ? 'failure' : 'success';
    job.completedAt = now;
    const check = repo.checkRuns.find((c) => c.id === job.id)!;
    check.status = 'completed';
    check.conclusion = job.conclusion;
    check.completedAt = now;
    check.output.annotationsCount = job.steps
      .flatMap((s) => s.log)
      .filter((l) => l.startsWith('##[error]')).length;
  }
  run.status = 'completed';
  run.conclusion = overall(latestJobs(repo, run).map((j) => j.conclusion));
  run.updatedAt = now;
  const suiteDone = settleSuite(repo, suite);
  const status = postStatus(world, repo, run, run.conclusion === 'success' ? 'success' : 'failure');
  world.store.save();
  for (const job of finishing) {
    await emitCheckRun(
      world,
      repo,
      repo.checkRuns.find((c) => c.id === job.id)!,
      'completed',
      run.triggeringActor,
    );
  }
  if (suiteDone) await emitCheckSuite(world, repo, suite, run.triggeringActor);
  await emitWorkflowRun(world, repo, run, 'completed');
  if (status) await emitStatus(world, repo, status);
}

/** The newest attempt of each of the run's jobs: what `filter=latest` lists. */
export function latestJobs(repo: SimRepo, run: SimWorkflowRun): SimJob[] {
  const jobs = repo.jobs.filter((j) => j.runId === run.id);
  return jobs.filter((j) => !jobs.some((o) => o.name === j.name && o.attempt > j.attempt));
}

export type RerunOutcome = { ok: true } | { ok: false; message: string };

/** Re-runs the failed jobs as the run's next attempt; the passed ones keep their results. */
export function rerunFailedJobs(
  world: SimWorld,
  repo: SimRepo,
  run: SimWorkflowRun,
  actor: string,
): RerunOutcome {
  if (run.status !== 'completed') return { ok: false, message: 'This workflow is already running' };
  const failed = latestJobs(repo, run).filter(
    (j) => j.conclusion !== 'success' && j.conclusion !== 'skipped',
  );
  if (!failed.length) return { ok: false, message: 'This workflow run has no failed jobs to re-run' };
  run.attempt += 1;
  run.status = 'queued';
  run.conclusion = null;
  run.triggeringActor = actor;
  run.runStartedAt = githubTime();
  run.updatedAt = run.runStartedAt;
  world.store.save();
  void world.background.run(`re-run of ${run.id}`, () =>
    queueAttempt(
      world,
      repo,
      run,
      failed.map((j) => j.name),
    ),
  );
  return { ok: true };
}

/** Posts the run's commit status when the script asks for one. */
function postStatus(
  world: SimWorld,
  repo: SimRepo,
  run: SimWorkflowRun,
  state: 'pending' | 'success' | 'failure',
) {
  if (!run.statusContext) return null;
  const words = { pending: 'Running', success: 'All checks passed', failure: 'Some checks failed' };
  return addStatus(world, repo, {
    sha: run.headSha,
    state,
    context: run.statusContext,
    description: words[state],
    targetUrl: `${world.urls.base}/${repo.owner}/${repo.name}/actions/runs/${run.id}`,
    creator: STATUS_CREATOR,
  });
}
