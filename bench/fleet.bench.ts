// fleet: a fleet near its limit. 4 `booty serve` workers with 4 job slots each (BOOTY_CONCURRENCY)
// on one durable PostgreSQL, 200 jobs labelled at once, the deliveries spread over the gateways.
// The job is the demo's pass job on its sample repository, whose test script sleeps 5 s before
// its tests, and the model (the Anthropic simulator, its latencyMs) takes 3 s over every answer:
// a job is mostly waiting, as a real one is, so booty's own CPU is small beside its waits. The
// simulators run in a child process of their own (bench/remote-simulators.ts), standing in for
// GitHub and Anthropic; they and PostgreSQL still share this machine's cores with the workers.
// The ideal is every slot busy waiting all the time: slots ÷ one job's waits, where the waits are
// counted from what the jobs did (their logs' model calls × 3 s + test runs × 5 s). The figure is
// the jobs per minute achieved, from the storm of labels to the last job promoted, over the ideal.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { examplesDir, sampleIssue } from '../src/demo/demo-script.js';
import { readTimeline } from '../src/engine/timeline.js';
import { PostgresEventStore } from '../src/store/postgres/postgres-event-store.js';
import { startPostgresServer } from '../test/support/postgres-server.js';
import { type BenchResult, ratio, round } from './bench-result.js';
import { createDatabase } from './postgres-database.js';
import { forkRemoteSimulators } from './remote-simulators.js';
import { bin, SECRET, startFleet, TOKEN, untilAllEnded, workerEnv } from './serve-workers.js';

const WORKERS = 4;
const SLOTS = 4;
// BOOTY_BENCH_FLEET_JOBS runs fewer, to try the bench out; the figure is reported for 200.
const JOBS = Number(process.env.BOOTY_BENCH_FLEET_JOBS ?? 200);
const MODEL_MS = 3_000;
const TEST_WAIT_S = 5;
/** The steps that ask the model, and those that run the repository's tests. */
const MODEL_STEPS = new Set(['analyze', 'generate', 'refine', 'answerRound', 'answerQuestion']);
const TEST_STEPS = new Set(['runBaseline', 'runTests']);

/** The sample repository whose test script waits before its tests, as a suite waits on a database. */
function waitingRepo(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'booty-fleet-repo-'));
  fs.cpSync(path.join(examplesDir, 'sample-repo'), dir, { recursive: true });
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  pkg.scripts.test = `sleep ${TEST_WAIT_S} && node --test`;
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  return dir;
}

/** The mean seconds a job waits on the model and its tests, from the steps its log records. */
async function meanWaitSeconds(store: PostgresEventStore): Promise<{ seconds: number; calls: string }> {
  let model = 0;
  let tests = 0;
  const jobs = await store.listJobs();
  for (const job of jobs) {
    for (const e of (await readTimeline(store, job.jobId)).entries) {
      if (e.type !== 'StepSucceeded' || !e.step) continue;
      if (MODEL_STEPS.has(e.step)) model++;
      if (TEST_STEPS.has(e.step)) tests++;
    }
  }
  return {
    seconds: (model * (MODEL_MS / 1000) + tests * TEST_WAIT_S) / jobs.length,
    calls: `${round(model / jobs.length, 2)} model calls and ${round(tests / jobs.length, 2)} test runs a job`,
  };
}

export default async function run(): Promise<BenchResult[]> {
  if (!fs.existsSync(bin)) throw new Error('fleet.bench.ts runs the built CLI: npm run build first');
  const server = await startPostgresServer({ durable: true });
  const simulators = await forkRemoteSimulators();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'booty-fleet-'));
  let fleet: Awaited<ReturnType<typeof startFleet>> | undefined;
  let store: PostgresEventStore | undefined;
  try {
    const remotes = await simulators.start({
      dir: path.join(dir, 'github'),
      port: 0,
      token: TOKEN,
      scenario: 'pass',
      modelLatencyMs: MODEL_MS,
    });
    const database = await createDatabase(server.url, `fleet_${process.pid}`);
    store = new PostgresEventStore(database);
    const repo = waitingRepo();
    await remotes.createRepo('bench', 'fleet', repo);
    fs.rmSync(repo, { recursive: true, force: true });
    const issues: number[] = [];
    for (let i = 0; i < JOBS; i++)
      issues.push(await remotes.createIssue('bench', 'fleet', { ...sampleIssue(), author: 'octocat' }));
    fleet = await startFleet(
      Array.from({ length: WORKERS }, (_, i) => ({
        ...workerEnv({
          dir: path.join(dir, `worker-${i}`),
          githubUrl: remotes.githubUrl,
          anthropicUrl: remotes.anthropicUrl,
          slots: SLOTS,
        }),
        BOOTY_DATABASE_URL: database,
      })),
    );
    await remotes.setWebhook({ url: fleet.webhookUrl, secret: SECRET });
    const started = performance.now();
    await Promise.all(issues.map((n) => remotes.labelIssue('bench', 'fleet', n, 'booty')));
    await untilAllEnded(() => store!.listJobs(), JOBS, 8);
    const achieved = JOBS / ((performance.now() - started) / 60_000);
    const wait = await meanWaitSeconds(store);
    const ideal = (WORKERS * SLOTS * 60) / wait.seconds;
    process.stderr.write(
      `   fleet: ${round(achieved)} jobs per minute, ideal ${round(ideal)} (${wait.calls}, ${round(wait.seconds)} s of waits a job)\n`,
    );
    return [
      {
        name: 'fleet',
        metric: 'achieved-vs-ideal',
        value: round(achieved),
        baseline: round(ideal),
        ratio: ratio(achieved, ideal),
        unit: `jobs per minute, ${WORKERS} serve workers × ${SLOTS} slots on one PostgreSQL, ${JOBS} jobs labelled at once, the model answering in ${MODEL_MS / 1000} s and each test run waiting ${TEST_WAIT_S} s (baseline: the ideal, ${WORKERS * SLOTS} slots ÷ a job's waits, ${wait.calls})`,
        goal: 'ratio >= 0.9',
      },
    ];
  } finally {
    await fleet?.close();
    await store?.close();
    await simulators.stop();
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
