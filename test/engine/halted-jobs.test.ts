import { afterEach, describe, expect, it } from 'vitest';
import { Supervisor } from '../../src/engine/supervisor.js';
import { BootyError, isBootyError } from '../../src/errors.js';
import { Intake } from '../../src/intake/deliveries.js';
import type { LeaseSettings } from '../../src/store/job-leases.js';
import { PostgresEventStore } from '../../src/store/postgres/postgres-event-store.js';
import { StoreHealth } from '../../src/store/store-health.js';
import { issueComment, sampleRequest } from '../support/job-harness.js';
import { freshDatabase, onDatabase } from '../support/postgres-database.js';
import { scriptedEffects } from '../support/scripted-effects.js';
import { sleep, until } from '../support/until.js';

// A job whose run halts on an error that is no store fault (here: an effect's outcome the store
// refuses to append) waits before any worker runs it again, twice as long each halt in a row, and
// its in-flight effect runs once per wait, not once per sweep. Workers are stores and supervisors
// in one process on one database, as in job-leases.test.ts.

// Long enough that a worker on a loaded machine keeps renewing; the first wait is 8 s.
const SETTINGS: LeaseSettings = { seconds: 4, pollMs: 100 };
const FIRST_WAIT = SETTINGS.seconds * 2;
const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** What the workers share: how effect outcomes are refused, what they reported, when each prepare ran. */
interface Fleet {
  url: string;
  /** The error an effect outcome's append meets; none: it is written. */
  refuse: (() => Error) | null;
  reports: unknown[];
  /** Each prepare call's lease, as the database stamped its take. */
  prepares: { key: string; takenAt: Date }[];
  /** Whether log reads fail, as a log this code cannot read does; and how often each job's was read. */
  unreadable: boolean;
  reads: Map<string, number>;
}

const refused = () => new Error('the outcome was refused (not a store fault)');

/** A worker whose store refuses effect outcomes as the fleet says; with health, as `serve` runs. */
function worker(fleet: Fleet, { withHealth = false } = {}) {
  const store = new PostgresEventStore(fleet.url, { leases: SETTINGS });
  const append = store.append.bind(store);
  store.append = (streamId, expected, events, options) => {
    const outcome = events.some((e) => e.type === 'StepSucceeded' || e.type === 'StepFailed');
    const refusal = outcome ? fleet.refuse?.() : undefined;
    return refusal ? Promise.reject(refusal) : append(streamId, expected, events, options);
  };
  const readStream = store.readStream.bind(store);
  store.readStream = (streamId, ...rest) => {
    fleet.reads.set(streamId, (fleet.reads.get(streamId) ?? 0) + 1);
    return fleet.unreadable
      ? Promise.reject(
          new BootyError('BOOTY_E_EVENT_UNKNOWN_TYPE', { stream: streamId, seq: 2, type: 'FromTheFuture' }),
        )
      : readStream(streamId, ...rest);
  };
  const effects = scriptedEffects();
  const prepare = effects.impls.prepare;
  effects.impls.prepare = (async (input, ctx) => {
    const { rows } = await onDatabase(fleet.url, (c) =>
      c.query<{ started_on: Date }>(`SELECT started_on FROM pgboss.job WHERE state = 'active'`),
    );
    fleet.prepares.push({ key: input.key, takenAt: rows[0]!.started_on });
    return prepare(input, ctx);
  }) as typeof prepare;
  // The store takes writes again (its probe commits): paused jobs resume.
  const health = withHealth
    ? new StoreHealth({
        store,
        intervalMs: 50,
        onChange: (state) => state === 'ok' && supervisor.resumePaused(),
      })
    : undefined;
  health?.start();
  const supervisor = new Supervisor({
    health,
    store,
    effects: effects.impls,
    concurrency: 2,
    settings: { retryBaseMs: 1, retryCapMs: 5 },
    onError: (err) => fleet.reports.push(err),
  });
  const intake = new Intake(supervisor);
  closing.push(async () => {
    health?.stop();
    await supervisor.shutdown();
    await store.close();
  });
  return { store, supervisor, intake };
}

type Worker = ReturnType<typeof worker>;

async function fleetOf(size: number, options: { withHealth?: boolean } = {}) {
  const fleet: Fleet = {
    url: await freshDatabase(),
    refuse: refused,
    reports: [],
    prepares: [],
    unreadable: false,
    reads: new Map(),
  };
  const workers = Array.from({ length: size }, () => worker(fleet, options));
  await Promise.all(workers.map((w) => w.supervisor.boot()));
  return { fleet, workers };
}

async function startJob(w: Worker, issue: number): Promise<string> {
  const created = await w.intake.submit(
    { id: `d-${issue}`, event: 'issues', action: 'labeled' },
    { kind: 'request', request: sampleRequest(issue) },
  );
  if (created.outcome !== 'created') throw new Error(created.outcome);
  return created.jobId;
}

const halts = (fleet: Fleet) =>
  fleet.reports.filter((e): e is BootyError => isBootyError(e, 'BOOTY_E_JOB_HALTED'));

/** The queue's rows (one job's at most): state, halts in a row, when due, and whether it is now. */
async function queueRows(url: string) {
  const { rows } = await onDatabase(url, (c) =>
    c.query<{ state: string; halts: number | null; start_after: Date; due: boolean; wait: number }>(
      `SELECT state, (data->>'halts')::int AS halts, start_after, start_after < now() AS due,
         extract(epoch FROM start_after - now())::float AS wait
       FROM pgboss.job`,
    ),
  );
  return rows;
}

/** The sweep a running worker makes every two lease periods, made now. */
const sweep = (w: Worker) =>
  (w.supervisor as unknown as { leased: { offerStale(): Promise<void> } }).leased.offerStale();

/** The wait set by the last halt passes, as if the time had gone by. */
const waitPasses = (url: string) =>
  onDatabase(url, (c) => c.query('UPDATE pgboss.job SET start_after = now()'));

describe('a job whose run halted', () => {
  it('given a run that halted on an error that is no store fault, then no worker takes the job before its wait ends, sweeps and a restart included, and one takes it after, waiting twice as long when it halts again', async () => {
    const { fleet, workers } = await fleetOf(2);
    const jobId = await startJob(workers[0]!, 1);
    await until('the run to halt and let go of its lease', async () => {
      const refused = fleet.reports.some((e) => /outcome was refused/.test((e as Error).message));
      return refused && (await queueRows(fleet.url)).every((r) => r.state !== 'active');
    });

    // Stale to the sweep (not updated for two lease periods): every worker sweeps, and a third
    // worker starts, offering every unfinished job.
    await onDatabase(fleet.url, (c) =>
      c.query('UPDATE jobs SET updated_at = updated_at - $1', [SETTINGS.seconds * 3000]),
    );
    await Promise.all(workers.map(sweep));
    const restarted = worker(fleet);
    await restarted.supervisor.boot();
    await sleep(SETTINGS.pollMs * 5);
    // Read before the row: the row still waiting proves the read came before the wait ended.
    const prepared = fleet.prepares.map((p) => p.key);
    const [waiting] = await queueRows(fleet.url);
    expect(prepared).toEqual([`${jobId}:prepare:0`]);
    expect(waiting).toMatchObject({ state: 'created', halts: 1, due: false });
    // The halt was said, with when the job runs again.
    const [first] = halts(fleet);
    expect(first?.params).toMatchObject({ jobId, halts: 1, seconds: FIRST_WAIT });
    expect(first?.message).toMatch(
      new RegExp(
        `outcome was refused.*1 time\\(s\\) in a row; no worker runs it again before \\S+ \\(in ${FIRST_WAIT} s\\)`,
      ),
    );

    // Its wait over, a worker takes it and does the effect again, which halts it again.
    const [, second] = await until(
      'the second halt',
      async () => halts(fleet).length === 2 && halts(fleet),
      FIRST_WAIT * 1000 + 20_000,
    );
    expect(fleet.prepares.map((p) => p.key)).toEqual([`${jobId}:prepare:0`, `${jobId}:prepare:0`]);
    expect(fleet.prepares[1]!.takenAt.getTime()).toBeGreaterThanOrEqual(waiting!.start_after.getTime());
    expect(second!.params).toMatchObject({ jobId, halts: 2, seconds: FIRST_WAIT * 2 });
    const [longer] = await queueRows(fleet.url);
    expect(longer).toMatchObject({ state: 'created', halts: 2, due: false });
    expect(longer!.wait).toBeGreaterThan(FIRST_WAIT);
  });

  it('given a job that halted twice in a row, when a run ends without halting, then its next halt waits the first wait again', async () => {
    const { fleet, workers } = await fleetOf(2);
    const jobId = await startJob(workers[0]!, 1);
    await until('the first halt', async () => halts(fleet).length === 1);
    await waitPasses(fleet.url);
    await until('the second halt', async () => halts(fleet).length === 2);
    expect(halts(fleet)[1]!.params).toMatchObject({ halts: 2, seconds: FIRST_WAIT * 2 });

    // The fault is gone: the next run goes on until the job parks with its PR, and lets go of its row.
    fleet.refuse = null;
    await waitPasses(fleet.url);
    const store = workers[0]!.store;
    await until('the job to park', async () => (await store.getJob(jobId))?.state === 'promoted');
    await until('its row to go', async () => (await queueRows(fleet.url)).length === 0);

    // A review wakes it, and its first outcome is refused again: counted from one.
    fleet.refuse = refused;
    const woke = await workers[1]!.intake.submit(...issueComment(7, 'One more thing.'));
    expect(woke).toEqual({ outcome: 'woke', jobId });
    await until('the third halt', async () => halts(fleet).length === 3);
    expect(halts(fleet)[2]!.params).toMatchObject({ jobId, halts: 1, seconds: FIRST_WAIT });
    expect(await queueRows(fleet.url)).toEqual([
      expect.objectContaining({ state: 'created', halts: 1, due: false }),
    ]);
  });

  it('given a job whose log this code cannot read, then its run halts once and waits, not taken again at every poll', async () => {
    const { fleet, workers } = await fleetOf(2);
    // A newer release wrote an event this one does not know.
    fleet.unreadable = true;
    const jobId = await startJob(workers[0]!, 1);
    await until('the halt', async () => halts(fleet).length === 1);
    await sleep(SETTINGS.pollMs * 10);
    await Promise.all(workers.map(sweep));
    await sleep(SETTINGS.pollMs * 5);

    expect(halts(fleet)).toHaveLength(1);
    expect(halts(fleet)[0]!.params).toMatchObject({ jobId, halts: 1, seconds: FIRST_WAIT });
    expect(fleet.reports.filter((e) => isBootyError(e, 'BOOTY_E_EVENT_UNKNOWN_TYPE'))).toHaveLength(1);
    expect(fleet.reads.get(jobId)).toBe(1);
    expect(await queueRows(fleet.url)).toEqual([
      expect.objectContaining({ state: 'created', halts: 1, due: false }),
    ]);
  });

  it('given a run that halted on a store fault (the connection lost), then it is not delayed: the job runs again once the store takes writes', async () => {
    const { fleet, workers } = await fleetOf(1, { withHealth: true });
    // The first outcome meets a lost connection; the store's next probe commits.
    fleet.refuse = () => {
      fleet.refuse = null;
      return Object.assign(new Error('connection failure'), { code: '08006' });
    };
    const jobId = await startJob(workers[0]!, 1);
    const store = workers[0]!.store;
    await until('the job to park', async () => (await store.getJob(jobId))?.state === 'promoted');
    expect(fleet.prepares.map((p) => p.key)).toEqual([`${jobId}:prepare:0`, `${jobId}:prepare:0`]);
    expect(fleet.reports.map((e) => (e as Error).message)).toEqual(['connection failure']);
  });
});
