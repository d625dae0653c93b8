// fleet: a fleet near its limit. 4 `booty serve` workers with 4 job slots each (BOOTY_CONCURRENCY)
// on one durable PostgreSQL, 200 jobs labelled at once, the deliveries spread over the gateways.
// The job is the demo's pass job on its sample repository, whose test command sleeps 5 s before
// its tests, and the model (the Anthropic simulator, its latencyMs) takes 3 s over every answer:
// a job is mostly waiting, as a real one is, so booty's own CPU is small beside its waits. The
// simulators run in a child process of their own (bench/remote-simulators.ts), standing in for
// GitHub and Anthropic; they and PostgreSQL still share this machine's cores with the workers.
// The ideal is every slot busy waiting all the time: slots ÷ one job's waits, where the waits are
// counted from what the jobs did (their logs' model calls × 3 s + test runs × 5 s). The figure is
// the jobs promoted per minute, from the storm of labels to the last one promoted (or to the
// window's end, WINDOW_MS), over the ideal. The stderr lines say where a job's time went.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { examplesDir, sampleIssue } from '../src/demo/demo-script.js';
import type { Step } from '../src/events/catalogue.js';
import { PostgresEventStore } from '../src/store/postgres/postgres-event-store.js';
import { startPostgresServer } from '../test/support/postgres-server.js';
import { type BenchResult, ratio, round } from './bench-result.js';
import { createDatabase } from './postgres-database.js';
import { forkRemoteSimulators } from './remote-simulators.js';
import {
  bin,
  cpuSeconds,
  jobsBy,
  machineTicks,
  SECRET,
  startFleet,
  TOKEN,
  tally,
  type Worker,
  workerEnv,
} from './serve-workers.js';

const WORKERS = 4;
const SLOTS = 4;
// BOOTY_BENCH_FLEET_JOBS runs fewer, to try the bench out; the figure is reported for 200.
const JOBS = Number(process.env.BOOTY_BENCH_FLEET_JOBS ?? 200);
// The jobs that end within this window of the labels count: a fleet far below its ideal would
// take the bench past its time (200 jobs at the ideal take about 3.5 minutes, 12.5 rounds of
// 16 s, plus the first job's start).
const WINDOW_MS = Number(process.env.BOOTY_BENCH_FLEET_WINDOW_MS ?? 240_000);
const MODEL_MS = 3_000;
const TEST_WAIT_S = 5;
/** The steps that ask the model, and those that run the repository's tests. */
const MODEL_STEPS = new Set<string>(['analyze', 'generate', 'refine', 'answer', 'question'] satisfies Step[]);
const TEST_STEPS = new Set<string>(['baseline', 'test'] satisfies Step[]);

/** The sample repository whose test command waits before its tests, as a suite waits on a database. */
function waitingRepo(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'booty-fleet-repo-'));
  fs.cpSync(path.join(examplesDir, 'sample-repo'), dir, { recursive: true });
  const settings = path.join(dir, '.github', 'booty.yml');
  const yml = fs.readFileSync(settings, 'utf8');
  const waiting = yml.replace(/^ {2}command: (.+)$/m, `  command: sleep ${TEST_WAIT_S} && $1`);
  if (waiting === yml) throw new Error(`no test command to make wait in ${settings}`);
  fs.writeFileSync(settings, waiting);
  return dir;
}

/** CPU seconds so far of the workers and of the simulators' process, each alone and its children. */
function costs(workers: Worker[], simulators: number): number[] {
  const sum = (children: boolean) => workers.reduce((n, w) => n + cpuSeconds(w.proc.pid!, children), 0);
  return [sum(false), sum(true), cpuSeconds(simulators), cpuSeconds(simulators, true)];
}

/**
 * PostgreSQL's CPU seconds so far, its server process and every process it started that still
 * runs (the workers' connections among them), and the transactions committed in the database.
 */
async function postgresCost(database: string): Promise<{ cpu: number; commits: number }> {
  const client = new pg.Client(database);
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number; commits: string }>(
      `SELECT pg_backend_pid() AS pid,
         (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()) AS commits`,
    );
    const parent = (pid: number | string) =>
      Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
    const server = parent(rows[0]!.pid);
    let cpu = cpuSeconds(server);
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        if (parent(entry) === server) cpu += cpuSeconds(Number(entry));
      } catch {
        // It ended while we looked.
      }
    }
    return { cpu, commits: Number(rows[0]!.commits) };
  } finally {
    await client.end();
  }
}

/**
 * The mean seconds a promoted job waits on the model and its tests, from the steps its log
 * records, and the mean time to each step from the event before it (prepare's includes the queue).
 * Read in one query over the log's rows, not job by job: the machine is busy enough.
 */
async function jobWaits(database: string) {
  const client = new pg.Client(database);
  await client.connect();
  try {
    const { rows } = await client.query<{ step: string; n: number; ms: number; jobs: number }>(
      `SELECT e.data::json->>'step' AS step, count(*)::int AS n, sum(e.at - p.at)::float8 AS ms,
         (SELECT count(*)::int FROM jobs WHERE state = 'promoted') AS jobs
       FROM events e
       JOIN events p ON p.stream_id = e.stream_id AND p.version = e.version - 1
       JOIN jobs j ON j.job_id = e.stream_id AND j.state = 'promoted'
       WHERE e.type IN ('StepSucceeded', 'StepFailed')
       GROUP BY 1 ORDER BY min(e.position)`,
    );
    const jobs = rows[0]?.jobs ?? 0;
    if (jobs === 0) throw new Error('no job was promoted: nothing to count the waits from');
    // A step that failed waited all the same.
    const count = (steps: Set<string>) =>
      rows.filter((r) => steps.has(r.step)).reduce((a, r) => a + r.n, 0) / jobs;
    const model = count(MODEL_STEPS);
    const tests = count(TEST_STEPS);
    return {
      seconds: model * (MODEL_MS / 1000) + tests * TEST_WAIT_S,
      calls: `${round(model, 2)} model calls and ${round(tests, 2)} test runs a job`,
      steps: rows.map((r) => `${r.step} ${round(r.ms / 1000 / jobs, 2)} s`).join(', '),
      ...(await tailAndTests(client, tests * TEST_WAIT_S)),
    };
  } finally {
    await client.end();
  }
}

/**
 * Two parts of a slot's time per job beyond its waits that are not booty's own: the test runs'
 * time past their sleep (the sample's own suite, as each run's record times it), and the slots
 * left idle once the queue was empty, the last jobs' tail that any batch has. The window is the
 * log's: from the last job's first step (prepare) to the last job's end, every slot busy before it.
 */
async function tailAndTests(client: pg.Client, sleptSeconds: number) {
  const { rows } = await client.query<{ prep: number; fin: number; tested: number }>(
    `SELECT min(e.at) FILTER (WHERE e.data::json->>'step' = 'prepare')::float8 AS prep,
       max(e.at)::float8 AS fin,
       coalesce(sum((e.data::json->'result'->>'durationMs')::float8)
         FILTER (WHERE e.data::json->>'step' IN ('baseline', 'test')), 0)::float8 AS tested
     FROM events e JOIN jobs j ON j.job_id = e.stream_id AND j.state = 'promoted'
     GROUP BY e.stream_id`,
  );
  const lastStart = Math.max(...rows.map((r) => r.prep));
  const end = Math.max(...rows.map((r) => r.fin));
  const busy = rows.reduce((n, r) => n + Math.max(0, r.fin - lastStart), 0);
  return {
    tailSeconds: (WORKERS * SLOTS * (end - lastStart) - busy) / 1000 / rows.length,
    suiteSeconds: rows.reduce((n, r) => n + r.tested, 0) / 1000 / rows.length - sleptSeconds,
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
      // The simulator's state file, the whole world's, written once within 50 ms rather than on
      // every change: it never restarts here, and GitHub's answers do not slow as a repository's
      // issues and pull requests grow, as they did when every change rewrote them all.
      saveWithinMs: 50,
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
    const ticks = machineTicks();
    const cpuBefore = costs(fleet.workers, simulators.pid);
    const postgresBefore = await postgresCost(database);
    const until = Date.now() + WINDOW_MS;
    // Resolves once every label's webhook was tried: the simulator sends them one at a time.
    await Promise.all(issues.map((n) => remotes.labelIssue('bench', 'fleet', n, 'booty')));
    const jobs = await jobsBy(() => store!.listJobs(), JOBS, until);
    const seconds = (performance.now() - started) / 1000;
    const done = tally(jobs);
    if (jobs.some((j) => j.final && j.state !== 'promoted'))
      throw new Error(`jobs did not reach promoted: ${done.states}`);
    const achieved = (done.ended * 60) / seconds;
    const machine = machineTicks();
    const spent = costs(fleet.workers, simulators.pid).map((c, i) => c - cpuBefore[i]!);
    const cpu = spent.map((c) => round(c / done.ended, 2));
    const postgresAfter = await postgresCost(database);
    const postgres = {
      cpu: round((postgresAfter.cpu - postgresBefore.cpu) / done.ended, 2),
      commits: round((postgresAfter.commits - postgresBefore.commits) / done.ended),
    };
    // The rest of the busy cores' time went to other work on the machine, beside the fleet.
    const fleetSeconds = spent.reduce((a, b) => a + b, 0) + postgresAfter.cpu - postgresBefore.cpu;
    const fleetShare = round((100 * fleetSeconds * 100) / (machine.busy - ticks.busy));
    const wait = await jobWaits(database);
    const ideal = (WORKERS * SLOTS * 60) / wait.seconds;
    // What each job held its slot for, beyond its waits, were every slot busy all along.
    const own = (WORKERS * SLOTS * seconds) / done.ended - wait.seconds;
    process.stderr.write(
      `   fleet: ${done.ended} of ${JOBS} jobs in ${round(seconds)} s (${done.states}): ${round(achieved)} jobs per minute, ideal ${round(ideal)} (${wait.calls}, ${round(wait.seconds)} s of waits a job)\n` +
        `   a slot's time per job beyond its waits: ${round(own, 2)} s; CPU seconds per job: serve ${cpu[0]}, its children (git, tests) ${cpu[1]}, the simulators ${cpu[2]}, their children (git) ${cpu[3]}, PostgreSQL ${postgres.cpu} (${postgres.commits} transactions a job); the machine's cores busy ${round((100 * (machine.busy - ticks.busy)) / (machine.total - ticks.total))} %, ${fleetShare} % of that the fleet's, load ${os
          .loadavg()
          .map((l) => round(l))
          .join(' ')}\n` +
        `   mean time to each step: ${wait.steps}\n` +
        `   of the ${round(own, 2)} s: the sample's suite past its sleep ${round(wait.suiteSeconds, 2)} s, the slots idle in the last jobs' tail ${round(wait.tailSeconds, 2)} s, the rest (booty, the simulators, PostgreSQL, and their waits on each other for the cores) ${round(own - wait.suiteSeconds - wait.tailSeconds, 2)} s\n`,
    );
    return [
      {
        name: 'fleet',
        metric: 'achieved-vs-ideal',
        value: round(achieved),
        baseline: round(ideal),
        ratio: ratio(achieved, ideal),
        unit: `jobs per minute, ${WORKERS} serve workers × ${SLOTS} slots on one PostgreSQL, ${JOBS} jobs labelled at once (those promoted within ${WINDOW_MS / 1000} s count), the model answering in ${MODEL_MS / 1000} s and each test run waiting ${TEST_WAIT_S} s (baseline: the ideal, ${WORKERS * SLOTS} slots ÷ a job's waits, ${wait.calls})`,
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
