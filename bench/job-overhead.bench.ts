// job-overhead: booty's own time per job, around the work it cannot skip. The demo's pass job runs
// ten times, each in a fresh demo directory: the local GitHub simulator, the Anthropic simulator
// answering at once (a zero-latency model), and the sample repository's real tests. It runs the
// built package (dist/, as `booty demo` does, through the same runDemo and composition root), so
// `npm run bench` builds first. The two simulators run in a child process of their own
// (bench/remote-simulators.ts), not in booty's as `booty demo` has them: they stand in for GitHub
// and Anthropic, remote machines whose event loop and spawned processes (git upload-pack and
// receive-pack behind every clone, fetch and push) are not booty's. They share this machine's two
// cores, though, so their work still competes with booty's for CPU; only booty's event loop is
// its own. Booty still talks to them over HTTP and git's smart HTTP and waits on every answer:
// their response times are in the figure. A job's wall time runs from its JobRequested to its last
// event; its two test runs (baseline and the change) are subtracted, as their own records time
// them. The baseline is the same two test runs done directly, without booty: `node --test` in a
// copy of the sample, twice.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BenchResult, median, ratio, round } from './bench-result.js';
import { built } from './built.js';
import { forkRemoteSimulators, type RemoteSimulators } from './remote-simulators.js';

const { readTimeline } = await built<typeof import('../src/engine/timeline.js')>('src/engine/timeline.js');
const { examplesDir } = await built<typeof import('../src/demo/demo-script.js')>('src/demo/demo-script.js');
const { runDemo } = await built<typeof import('../src/demo/run-demo.js')>('src/demo/run-demo.js');
const { openStore } = await built<typeof import('../src/main/open-store.js')>('src/main/open-store.js');
const { forgetCommits } = await built<typeof import('../src/workspace/commit-cache.js')>(
  'src/workspace/commit-cache.js',
);

const JOBS = 10;

interface JobTimes {
  wallMs: number;
  testsMs: number;
  /** Each step's share of the wall time, from the event before it to its own, its test runs taken out. */
  steps: Record<string, number>;
}

async function oneJob(remotes: RemoteSimulators): Promise<JobTimes> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'booty-overhead-'));
  forgetCommits(); // each job cold: nothing read by an earlier job of the same sample
  const result = await runDemo({ scenario: 'pass', dir, remotes: remotes.start });
  if (!result.ok) throw new Error(`the demo job ended in ${result.finalState}, not promoted`);
  const store = openStore(result.db);
  try {
    const timeline = await readTimeline(store, result.jobId);
    const first = timeline.entries[0]!;
    const last = timeline.entries.at(-1)!;
    const { baseline, attempts } = timeline.snapshot.context;
    const testsMs = (baseline?.durationMs ?? 0) + attempts.reduce((n, a) => n + (a.test?.durationMs ?? 0), 0);
    const steps: Record<string, number> = {};
    for (const e of timeline.entries.slice(1))
      steps[e.step ?? e.type] = (steps[e.step ?? e.type] ?? 0) + e.deltaMs;
    steps.baseline = (steps.baseline ?? 0) - (baseline?.durationMs ?? 0);
    steps.test = (steps.test ?? 0) - attempts.reduce((n, a) => n + (a.test?.durationMs ?? 0), 0);
    return { wallMs: last.at - first.at, testsMs, steps };
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function directTests(): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'booty-overhead-direct-'));
  fs.cpSync(path.join(examplesDir, 'sample-repo'), dir, { recursive: true });
  const started = performance.now();
  for (let i = 0; i < 2; i++) execFileSync(process.execPath, ['--test'], { cwd: dir, stdio: 'ignore' });
  const ms = performance.now() - started;
  fs.rmSync(dir, { recursive: true, force: true });
  return ms;
}

export default async function run(): Promise<BenchResult[]> {
  const remotes = await forkRemoteSimulators();
  const jobs: JobTimes[] = [];
  const direct: number[] = [];
  try {
    await oneJob(remotes); // warm-up: module loading and the first git and bwrap start-ups
    for (let i = 0; i < JOBS; i++) {
      jobs.push(await oneJob(remotes));
      direct.push(directTests());
    }
  } finally {
    await remotes.stop();
  }
  const own = jobs.map((j) => j.wallMs - j.testsMs);
  const steps = Object.keys(jobs[0]!.steps).map(
    (step) => `${step} ${round(median(jobs.map((j) => j.steps[step] ?? 0)), 0)}`,
  );
  process.stderr.write(
    `   per step (median ms, test runs taken out): ${steps.join(', ')}; the two test runs ${round(median(jobs.map((j) => j.testsMs)), 0)}\n`,
  );
  process.stderr.write(`   per job own ms: ${own.map((ms) => round(ms, 0)).join(', ')}\n`);
  const value = round(median(own));
  const baseline = round(median(direct));
  return [
    {
      name: 'job-overhead',
      metric: 'own-time',
      value,
      baseline,
      ratio: ratio(value, baseline),
      unit: `ms per demo pass job, median of ${JOBS}, wall minus its two test runs (baseline: the two test runs done directly)`,
      goal: 'ratio <= 0.5',
    },
  ];
}
