import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../src/env.js';
import { startBooty } from '../../src/main/serve.js';
import { captureLog, deliver, labelPayload, SECRET } from '../gateway/gateway-harness.js';
import { tempDir } from '../support/job-harness.js';
import { freshDatabase } from '../support/postgres-database.js';
import { scriptedEffects } from '../support/scripted-effects.js';
import { until } from '../support/until.js';

// A rolling deploy of two `booty serve`s on one PostgreSQL database (startBooty, as the CLI starts
// them): each is stopped in turn with steps under way, and a new one takes its place. Under the
// drain (BOOTY_DRAIN_MS) every running step finishes and is logged where it ran, the log says which
// jobs finished their step, and the next worker runs the rest: no effect runs twice. Without the
// drain, a stopping worker hands its jobs back at once and its log lists them.

type Worker = Awaited<ReturnType<typeof startWorker>>;

async function startWorker(url: string, name: string, drainMs: number, delayMs: number) {
  const dir = tempDir(`booty-rolling-${name}-`);
  const env = loadEnv({
    HOST: '127.0.0.1',
    PORT: '0',
    GITHUB_WEBHOOK_SECRET: SECRET,
    BOOTY_DATABASE_URL: url,
    BOOTY_DB: path.join(dir, 'booty.db'),
    BOOTY_WORKDIR: path.join(dir, 'work'),
    BOOTY_WORKER_ID: name,
    BOOTY_DRAIN_MS: String(drainMs),
    BOOTY_CONCURRENCY: '2',
    BOOTY_LEASE_SECONDS: '4',
    BOOTY_LEASE_POLL_MS: '100',
  });
  const effects = scriptedEffects({ delayMs });
  const { log, lines } = captureLog();
  const booty = await startBooty({ env, effects: effects.impls, log });
  return { name, booty, effects, lines };
}

/** The worker's "stopped" line: which jobs finished their step, and which were handed back. */
function stoppedLine(w: Worker) {
  const line = w.lines.map((l) => JSON.parse(l)).find((l) => /^stopped:/.test(l.msg));
  return line as { msg: string; finishedStep: string[]; handedBack: string[] } | undefined;
}

async function startJob(w: Worker, issue: number): Promise<string> {
  const r = await deliver(w.booty.server.url, { payload: labelPayload('labeled', { issue }) });
  expect(r.status).toBe(202);
  return r.body.jobId as string;
}

/** Jobs with an effect under way on the worker now: started, not yet logged. */
const runningOn = (w: Worker) => w.booty.supervisor.running;

describe('a rolling restart of two workers on PostgreSQL', () => {
  it('given each worker stopped in turn under the drain with steps under way, then every running step finishes once where it ran, the log lists them, and nothing runs twice', async () => {
    const url = await freshDatabase();
    const all: Worker[] = [];
    const open: Worker[] = [];
    const start = async (name: string) => {
      const w = await startWorker(url, name, 30_000, 400);
      all.push(w);
      open.push(w);
      return w;
    };
    const stop = async (w: Worker) => {
      open.splice(open.indexOf(w), 1);
      await w.booty.close();
    };
    try {
      const [a, b] = [await start('a'), await start('b')];
      const jobIds = [await startJob(a, 1), await startJob(a, 2), await startJob(b, 3), await startJob(b, 4)];

      for (const [leaving, next] of [
        [a, 'a2'],
        [b, 'b2'],
      ] as const) {
        await until(`${leaving.name} to have steps under way`, async () => runningOn(leaving).length > 0);
        await stop(leaving);
        const stopped = stoppedLine(leaving);
        expect(stopped, leaving.lines.join('\n')).toBeDefined();
        expect(stopped!.handedBack).toEqual([]);
        expect(stopped!.finishedStep.length).toBeGreaterThan(0);
        expect(stopped!.msg).toMatch(/job\(s\) finished their step/);
        // Each listed job's last step was logged by the worker that ran it, and none holds it now.
        for (const jobId of stopped!.finishedStep) {
          const events = await open[0]!.booty.store.readStream(jobId);
          expect(events.at(-1)!.meta.worker).toBe(leaving.name);
          expect((await open[0]!.booty.store.getJob(jobId))?.heldBy).not.toBe(leaving.name);
        }
        await start(next);
      }

      const done = await until('every job to park', async () => {
        const jobs = await open[0]!.booty.store.listJobs();
        return jobs.length === jobIds.length && jobs.every((j) => j.state === 'promoted') && jobs;
      });
      expect(done.map((j) => j.jobId).sort()).toEqual([...jobIds].sort());
      // No effect ran twice, on any worker; every step's outcome is logged once.
      const calls = all.flatMap((w) => w.effects.log);
      expect(calls.length).toBeGreaterThan(0);
      expect(calls.filter((c, i) => calls.indexOf(c) !== i)).toEqual([]);
      for (const jobId of jobIds) {
        const events = await open[0]!.booty.store.readStream(jobId);
        const steps = events.filter((e) => e.type === 'StepSucceeded').map((e) => `${e.data.step}`);
        expect(new Set(steps).size, jobId).toBe(steps.length);
      }
    } finally {
      for (const w of open.splice(0)) await w.booty.close();
    }
  }, 60_000);

  it('given a worker stopped without the drain with steps under way, then it hands their jobs back at once and its log lists them', async () => {
    const url = await freshDatabase();
    // Steps longer than the test waits: only a hand-back ends them in time.
    const w = await startWorker(url, 'hasty', 0, 1_500);
    let closed = false;
    try {
      const jobIds = [await startJob(w, 1), await startJob(w, 2)];
      await until('both steps to be under way', async () => w.effects.log.length === 2);
      await w.booty.close();
      closed = true;
      const stopped = stoppedLine(w);
      expect(stopped, w.lines.join('\n')).toBeDefined();
      expect(stopped!.finishedStep).toEqual([]);
      expect([...stopped!.handedBack].sort()).toEqual([...jobIds].sort());
      expect(stopped!.msg).toMatch(/handed back 2, which resume from their logs/);
    } finally {
      if (!closed) await w.booty.close();
    }
  }, 60_000);
});
