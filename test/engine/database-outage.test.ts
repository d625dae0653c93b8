import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaseCount } from '../../src/engine/leased-jobs.js';
import { Supervisor } from '../../src/engine/supervisor.js';
import { Intake } from '../../src/intake/deliveries.js';
import type { LeaseSettings } from '../../src/store/job-leases.js';
import { PostgresEventStore } from '../../src/store/postgres/postgres-event-store.js';
import { StoreHealth } from '../../src/store/store-health.js';
import { sampleRequest } from '../support/job-harness.js';
import { type PostgresServer, startPostgresServer } from '../support/postgres-server.js';
import { scriptedEffects } from '../support/scripted-effects.js';
import { sleep, until } from '../support/until.js';

// #34's outage: PostgreSQL stops for longer than a lease while two workers run jobs. Each paused
// job keeps its lease and runs again on the worker that held it once the database is back, from its
// log; none moves to the other worker, no lease lapses, nothing is taken over. A server of its own
// (test/support/postgres-server.ts), since the run's shared one cannot stop.

const SETTINGS: LeaseSettings = { seconds: 2, pollMs: 100 };
let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgresServer();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

function worker(url: string, name: string) {
  const store = new PostgresEventStore(url, { leases: SETTINGS });
  // Each effect waits a while: the outage lands while steps are under way.
  const effects = scriptedEffects({ delayMs: 400 });
  const notes: { jobId: string; what: string }[] = [];
  const counted: LeaseCount[] = [];
  // As `booty serve` has it (src/main/compose.ts): a write that fails for the database pauses its
  // job, and the probe that commits again resumes the paused ones.
  const health: StoreHealth = new StoreHealth({
    store,
    onChange: (state) => {
      if (state === 'ok') supervisor.resumePaused();
    },
  });
  const supervisor = new Supervisor({
    health,
    store,
    effects: effects.impls,
    concurrency: 2,
    settings: { retryBaseMs: 1, retryCapMs: 5 },
    onError: () => undefined,
    note: (_level, jobId, what) => notes.push({ jobId, what }),
    countLease: (what, n = 1) => {
      for (let i = 0; i < n; i++) counted.push(what);
    },
    worker: name,
  });
  health.start();
  return { name, store, health, supervisor, intake: new Intake(supervisor), effects, notes, counted };
}

describe('a PostgreSQL outage longer than the lease', () => {
  it('given two workers with jobs under way when the database stops past a lease period, then every paused job runs again on its own worker once it is back, and none moves', async () => {
    const url = server.url;
    const workers = [worker(url, 'worker-a'), worker(url, 'worker-b')];
    await Promise.all(workers.map((w) => w.supervisor.boot()));
    try {
      // Two jobs started at each worker's gateway; each worker takes the ones offered there first.
      const jobIds: string[] = [];
      for (const [i, w] of [workers[0]!, workers[1]!, workers[0]!, workers[1]!].entries()) {
        const answer = await w.intake.submit(
          { id: `d-${i}`, event: 'issues', action: 'labeled' },
          { kind: 'request', request: sampleRequest(i + 1) },
        );
        if (answer.outcome !== 'created') throw new Error(answer.outcome);
        jobIds.push(answer.jobId);
      }
      // Every job past its first step, so each has a holder written in its log.
      const holders = await until('every job to have a step logged', async () => {
        const jobs = await workers[0]!.store.listJobs();
        return jobs.length === 4 && jobs.every((j) => j.version > 2 && j.heldBy) && jobs;
      });
      const holderOf = new Map(holders.map((j) => [j.jobId, j.heldBy!]));

      await server.halt();
      // Past the lease: a lapse by the clock alone would now move every job.
      await sleep(SETTINGS.seconds * 1000 * 2);
      await server.resume();

      const done = await until(
        'every job to park',
        async () => {
          const jobs = await workers[0]!.store.listJobs();
          return jobs.every((j) => j.state === 'promoted') && jobs;
        },
        60_000,
      );
      expect(done).toHaveLength(4);
      for (const jobId of jobIds) {
        const events = await workers[0]!.store.readStream(jobId);
        // Every step after the request was written by the worker that held the job before the outage.
        const writers = new Set(events.slice(1).map((e) => e.meta.worker));
        expect(writers, jobId).toEqual(new Set([holderOf.get(jobId)]));
        const steps = events
          .filter((e) => e.type === 'StepSucceeded')
          .map((e) => `${e.data.step}:${e.data.attempt}`);
        expect(new Set(steps).size, jobId).toBe(steps.length);
        // Nothing of it ran on the other worker.
        const other = workers.find((w) => w.name !== holderOf.get(jobId))!;
        expect(other.effects.log.filter((k) => k.startsWith(`${jobId}:`))).toEqual([]);
      }
      // Every job, paused by the outage, ran again where it was through its renewed lease: none
      // was let go, lapsed or taken over.
      for (const w of workers) {
        const resumed = w.notes.filter((n) => /runs here again/.test(n.what)).map((n) => n.jobId);
        const held = jobIds.filter((jobId) => holderOf.get(jobId) === w.name);
        expect(new Set(resumed), w.name).toEqual(new Set(held));
        expect(
          w.counted.filter((c) => c === 'lapse' || c === 'takeover'),
          w.name,
        ).toEqual([]);
        expect(
          w.counted.filter((c) => c === 'take'),
          w.name,
        ).toHaveLength(held.length);
      }
    } finally {
      for (const w of workers) {
        w.health.stop();
        await w.supervisor.shutdown();
        await w.store.close();
      }
    }
  }, 120_000);
});
