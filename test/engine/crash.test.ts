import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { SqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import { bundled } from '../support/compiled.js';
import { tempDir } from '../support/job-harness.js';

// A real process runs a job and dies by SIGKILL after event k, for every k (inside the effect that
// follows it, one case per k; and at the boundary, every k in one chain of processes); a new
// process on the same database finishes it. The log must make the crash invisible in the outcome
// and in the effects: completed ones never run again, the one in flight runs at most once more; and
// the log it leaves replays verified.

const worker = () => bundled('test/engine/fixtures/crash-worker.ts');
const run = promisify(execFile);

interface Result {
  jobId: string;
  value: string;
  attempt: number;
  outcome: unknown;
  pr: { headSha: string; draft: boolean } | null;
  rounds: { n: number; result: string; commit: string | null }[];
  events: number;
}

async function runWorker(dir: string, env: Record<string, string> = {}): Promise<Result | 'killed'> {
  try {
    const { stdout } = await run(
      process.execPath,
      [worker(), path.join(dir, 'booty.db'), path.join(dir, 'calls.log')],
      {
        env: { ...process.env, ...env },
      },
    );
    return JSON.parse(stdout.trim().split('\n').pop()!);
  } catch (err) {
    if ((err as { signal?: string }).signal === 'SIGKILL') return 'killed';
    throw err;
  }
}

const countCalls = (dir: string) => {
  const counts = new Map<string, number>();
  for (const line of fs.readFileSync(path.join(dir, 'calls.log'), 'utf8').split('\n').filter(Boolean)) {
    const key = line.split(':').slice(1).join(':');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
};

async function inPairs<T>(items: T[], fn: (t: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += 2) await Promise.all(items.slice(i, i + 2).map(fn));
}

/** How the job ended: a crashed run must end the same. */
const endOf = ({ value, attempt, outcome, pr, rounds }: Result) =>
  JSON.stringify({ value, attempt, outcome, pr, rounds });

/** The uninterrupted run of a scenario, its effect calls, and the version of GitHub's first news. */
async function cleanRun(scenario: string) {
  const dir = tempDir();
  const clean = await runWorker(dir, { SCENARIO: scenario });
  if (clean === 'killed') throw new Error('the uninterrupted run was killed');
  const store = new SqliteEventStore(path.join(dir, 'booty.db'));
  const types = (await store.readStream(clean.jobId)).map((e) => e.type);
  await store.close();
  const news =
    types.findIndex((t) => t === 'FeedbackReceived' || t === 'CiCompleted' || t === 'CommandReceived') + 1;
  return { clean, calls: countCalls(dir), news };
}

/**
 * Kills after every event from `from` to the one before the last, inside the next effect, one case
 * per event: each must end as the clean run did, re-running at most the effect in flight. Then at
 * every boundary in one chain: each process dies right after its next event and the next one takes
 * the job from the log, so every step runs in a process that has just rebuilt the job, and nothing
 * may run twice.
 */
async function crashEvery(
  scenario: string,
  { clean, calls: cleanCalls }: Awaited<ReturnType<typeof cleanRun>>,
  from = 1,
) {
  const ks = Array.from({ length: clean.events - from }, (_, i) => from + i);
  const failures: string[] = [];
  await inPairs(ks, async (k) => {
    const dir = tempDir();
    const first = await runWorker(dir, { SCENARIO: scenario, KILL_AT: String(k), KILL_MODE: 'effect' });
    const second = await runWorker(dir, { SCENARIO: scenario });
    const label = `kill inside the effect after event ${k}`;
    if (first !== 'killed') failures.push(`${label}: the process was not killed`);
    // A kill inside an effect may swallow a scripted transient failure: the events may differ.
    failures.push(...(await endedAsClean(label, dir, second, clean)));
    const { extra, missing } = callsAgainst(countCalls(dir), cleanCalls);
    if (missing.length) failures.push(`${label}: effects never ran: ${missing}`);
    // Only the effect in flight may run again, once.
    if (extra.length > 1 || extra.some((e) => !e.endsWith('×1'))) failures.push(`${label}: re-ran ${extra}`);
  });

  const dir = tempDir();
  let kills = 0;
  let last: Result | 'killed' = 'killed';
  for (let k = from; last === 'killed'; k++) {
    const kill: Record<string, string> =
      k < clean.events ? { KILL_AT: String(k), KILL_MODE: 'boundary' } : {};
    last = await runWorker(dir, { SCENARIO: scenario, ...kill });
    if (last === 'killed') kills++;
  }
  const label = 'killed after every event';
  if (kills !== ks.length) failures.push(`${label}: ${kills} kills, not ${ks.length}`);
  failures.push(...(await endedAsClean(label, dir, last, clean)));
  if (last.events !== clean.events) failures.push(`${label}: ${last.events} events`);
  const { extra, missing } = callsAgainst(countCalls(dir), cleanCalls);
  if (missing.length || extra.length) failures.push(`${label}: never ran ${missing}; re-ran ${extra}`);
  expect(failures).toEqual([]);
}

/** Why a run after kills did not end as the clean one, its log replayed and verified. */
async function endedAsClean(label: string, dir: string, run: Result | 'killed', clean: Result) {
  if (run === 'killed' || endOf(run) !== endOf(clean)) return [`${label}: ended ${JSON.stringify(run)}`];
  // Every recorded state, the hash chain and the versions check out against the fold.
  const verify = await replayVerify(dir, run.jobId);
  return verify.code !== 0 || !verify.verified ? [`${label}: replay --verify: ${verify.out}`] : [];
}

/** Effect calls beyond the clean run's (`key×n`), and the clean run's that never came. */
function callsAgainst(calls: Map<string, number>, cleanCalls: Map<string, number>) {
  const extra = [...calls]
    .filter(([key, n]) => n > (cleanCalls.get(key) ?? 0))
    .map(([key, n]) => `${key}×${n - (cleanCalls.get(key) ?? 0)}`);
  const missing = [...cleanCalls].filter(([key, n]) => (calls.get(key) ?? 0) < n).map(([key]) => key);
  return { extra, missing };
}

/** `booty replay <job> --verify --json` on the case's database, the command line's own code. */
async function replayVerify(dir: string, jobId: string) {
  const out: string[] = [];
  const code = await main(['replay', jobId, '--verify', '--json', '--db', path.join(dir, 'booty.db')], {
    out: (t) => out.push(t),
    err: (t) => out.push(t),
    env: {},
  });
  const text = out.join('\n');
  return { code, out: text, verified: code === 0 && JSON.parse(text).verified === true };
}

/** Calls of one effect, by the step named in their keys. */
const callsTo = (calls: Map<string, number>, src: string) =>
  [...calls].filter(([key]) => key.split(':')[0] === src).reduce((sum, [, n]) => sum + n, 0);

describe('crash safety', () => {
  it('finishes identically after a SIGKILL at every event, re-running only the effect in flight', async () => {
    const run = await cleanRun('job');
    expect(run.clean.value).toBe('promoted');
    expect(run.clean.attempt).toBe(2);
    await crashEvery('job', run);
  }, 300_000);

  it('a review round: a SIGKILL at each of its events ends as the uninterrupted round, one commit and one answer', async () => {
    const run = await cleanRun('review');
    expect(run.clean).toMatchObject({
      value: 'promoted',
      pr: { draft: false, headSha: '1'.padStart(40, 'd') },
      rounds: [{ n: 1, result: 'pushed', commit: '1'.padStart(40, 'd') }],
    });
    expect(callsTo(run.calls, 'answerRound')).toBe(1);
    await crashEvery('review', run, run.news);
  }, 300_000);

  it('a CI round: red, red again on the one re-run, a round, then green and promoted, whatever event the crash follows', async () => {
    const run = await cleanRun('ci');
    expect(run.clean).toMatchObject({
      value: 'promoted',
      pr: { draft: false, headSha: '1'.padStart(40, 'd') },
      rounds: [{ n: 1, result: 'pushed', commit: '1'.padStart(40, 'd') }],
    });
    expect(callsTo(run.calls, 'rerunCi')).toBe(1);
    expect(callsTo(run.calls, 'answerRound')).toBe(1);
    await crashEvery('ci', run, run.news);
  }, 300_000);

  it('a plan that waits: a SIGKILL at each event from the analysis on ends as the uninterrupted run, revised once, approved, promoted', async () => {
    const run = await cleanRun('plan');
    expect(run.clean).toMatchObject({ value: 'promoted', attempt: 1 });
    expect(run.news).toBeGreaterThan(0);
    expect(callsTo(run.calls, 'analyze')).toBe(3); // a transient failure, the analysis, the revised one
    expect(callsTo(run.calls, 'postPlan')).toBe(2);
    // From the first analysis's event: the plan posted, the wait, the revision, the approval.
    await crashEvery('plan', run, run.news - 3);
  }, 300_000);

  it('a job parked at its budget: a SIGKILL at each event from the park on ends as the uninterrupted run, continued and promoted', async () => {
    const run = await cleanRun('budget');
    expect(run.clean).toMatchObject({ value: 'promoted', attempt: 2 });
    expect(run.news).toBeGreaterThan(0);
    expect(callsTo(run.calls, 'refine')).toBe(1);
    await crashEvery('budget', run, run.news - 1);
  }, 300_000);

  it('a stalled loop that escalates: a SIGKILL at each event from the stall on ends as the uninterrupted run', async () => {
    const run = await cleanRun('escalate');
    expect(run.clean).toMatchObject({
      value: 'prOpened',
      attempt: 3,
      outcome: { reason: 'stalled' },
    });
    expect(callsTo(run.calls, 'escalate')).toBe(1);
    await crashEvery('escalate', run, run.clean.events - 4);
  }, 300_000);
});
