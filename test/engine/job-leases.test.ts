import { afterEach, describe, expect, it } from 'vitest';
import { type JobObserver, Supervisor } from '../../src/engine/supervisor.js';
import { BootyError } from '../../src/errors.js';
import { Intake } from '../../src/intake/deliveries.js';
import type { LeaseSettings } from '../../src/store/job-leases.js';
import { PostgresEventStore } from '../../src/store/postgres/postgres-event-store.js';
import { issueComment, sampleRequest } from '../support/job-harness.js';
import { freshDatabase, onDatabase } from '../support/postgres-database.js';
import { type Script, scriptedEffects } from '../support/scripted-effects.js';
import { sleep, until } from '../support/until.js';

// Jobs leased through pg-boss to workers on one PostgreSQL database. What every JobLeases keeps
// (one holder at a time, renewal, lapse, release) is its contract (test/store/job-leases-contract.ts,
// run on pg-boss by test/store/postgres-job-leases.test.ts); here are workers leasing jobs: stores
// and supervisors in one process. test/e2e/many-workers.test.ts runs them as `booty serve` processes.

// Long enough that a worker on a loaded machine (two cores, test files in parallel) keeps renewing.
const SETTINGS: LeaseSettings = { seconds: 4, pollMs: 100 };
const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

let workers = 0;

/** A worker: its own store (with leases), supervisor and scripted effects, on the database. */
function worker(
  url: string,
  script: Script = {},
  concurrency = 2,
  observers: JobObserver[] = [],
  settings: LeaseSettings = SETTINGS,
) {
  const name = `worker-${++workers}`;
  const store = new PostgresEventStore(url, { leases: settings });
  const effects = scriptedEffects(script);
  const errors: unknown[] = [];
  const notes: string[] = [];
  const supervisor = new Supervisor({
    store,
    effects: effects.impls,
    concurrency,
    observers,
    settings: { retryBaseMs: 1, retryCapMs: 5 },
    onError: (err) => errors.push(err),
    note: (_level, _jobId, what) => notes.push(what),
    worker: name,
  });
  const intake = new Intake(supervisor);
  closing.push(async () => {
    await supervisor.shutdown();
    await store.close();
  });
  return { name, store, supervisor, intake, effects, errors, notes };
}

const labeled = (issue: number, id = `d-${issue}`) =>
  [
    { id, event: 'issues', action: 'labeled' },
    { kind: 'request' as const, request: sampleRequest(issue) },
  ] as const;

/** Starts a job for the issue through the worker's gateway; its id. */
async function startJob(w: { intake: Intake }, issue: number): Promise<string> {
  const created = await w.intake.submit(...labeled(issue));
  if (created.outcome !== 'created') throw new Error(created.outcome);
  return created.jobId;
}

/** The queue's leased rows, locked: a renewal or release of them waits. */
const ACTIVE_LEASES = `SELECT id FROM pgboss.job WHERE state = 'active' FOR UPDATE`;

/** Another session locks the rows a query selects, until `release` (which may be called twice). */
async function holdRows(url: string, lockQuery: string, values: unknown[] = []) {
  const { default: pg } = await import('pg');
  const locker = new pg.Client(url);
  await locker.connect();
  await locker.query('BEGIN');
  const { rowCount } = await locker.query(lockQuery, values);
  let released: Promise<void> | null = null;
  const release = () => {
    released ??= locker.query('ROLLBACK').then(() => locker.end());
    return released;
  };
  return { rows: rowCount, release };
}

describe('the queue’s own faults', () => {
  it('given the queue’s connections cut by the database, then the worker reports the fault, not swallows it', async () => {
    const url = await freshDatabase();
    const a = worker(url);
    await a.supervisor.boot();
    await a.store.leases!.offer(['job-x']);
    await onDatabase(url, (c) =>
      c.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'booty leases'`,
      ),
    );
    const reported = await until('the fault to be reported', async () =>
      a.errors.find((e) => /terminat/i.test(String((e as Error).message))),
    );
    expect(String((reported as Error).message)).toMatch(
      /terminating connection due to administrator command/,
    );
  });
});

describe('workers on one database', () => {
  it('given each delivery sent to two workers at once, then one job starts per delivery, every job runs once and parks', async () => {
    const url = await freshDatabase();
    const workers = [worker(url, { delayMs: 5 }), worker(url, { delayMs: 5 })];
    await Promise.all(workers.map((w) => w.supervisor.boot()));
    const issues = Array.from({ length: 8 }, (_, i) => i + 1);
    const answers = await Promise.all(
      issues.flatMap((issue) => workers.map((w) => w.intake.submit(...labeled(issue)))),
    );
    expect(answers.filter((a) => a.outcome === 'created')).toHaveLength(issues.length);
    expect(answers.filter((a) => a.outcome === 'duplicate')).toHaveLength(issues.length);

    const store = workers[0]!.store;
    const jobs = await until('every job to park', async () => {
      const all = await store.listJobs();
      return all.length === issues.length && all.every((j) => j.state === 'promoted') && all;
    });
    expect(jobs.map((j) => j.issue).sort((x, y) => x - y)).toEqual(issues);
    // No effect ran twice, on either worker, and each log holds each step once.
    const calls = workers.flatMap((w) => w.effects.log);
    expect(new Set(calls).size).toBe(calls.length);
    for (const job of jobs) {
      const steps = (await store.readStream(job.jobId)).map((e) => `${e.type}:${e.data.step ?? ''}`);
      expect(new Set(steps).size).toBe(steps.length);
    }
    expect(workers.flatMap((w) => w.errors)).toEqual([]);
  });

  it('given two deliveries for one issue at two workers at once (opened with the label, and labeled), then one job starts and the other answers already-active', async () => {
    const url = await freshDatabase();
    const [a, b] = [worker(url, { delayMs: 5 }), worker(url, { delayMs: 5 })];
    const issues = [1, 2, 3, 4, 5, 6];
    const answers = await Promise.all(
      issues.map((issue) =>
        Promise.all([
          a.intake.submit(...labeled(issue, `opened-${issue}`)),
          b.intake.submit(...labeled(issue, `labeled-${issue}`)),
        ]),
      ),
    );
    for (const pair of answers) {
      expect(pair.map((p) => p.outcome).sort()).toEqual(['already-active', 'created']);
      const [x, y] = pair as { jobId: string }[];
      expect(x!.jobId).toBe(y!.jobId);
    }
    expect(await a.store.listJobs()).toHaveLength(issues.length);
  });

  it('given a job parked after running on one worker, when the other takes a review for it, then the job wakes and runs its round once', async () => {
    const url = await freshDatabase();
    const [a, b] = [worker(url), worker(url)];
    await a.supervisor.boot();
    const jobId = await startJob(a, 1);
    await until('the job to park', async () => (await a.store.getJob(jobId))?.state === 'promoted');
    // Only the second worker leases from now on: the first takes webhooks only.
    await a.supervisor.shutdown();
    await b.supervisor.boot();

    const woke = await b.intake.submit(
      { id: 'd-review', event: 'pull_request_review', action: 'submitted' },
      {
        kind: 'wake',
        repo: { forge: 'github' as const, owner: 'acme', name: 'widgets' },
        target: { pr: 7 },
        event: {
          type: 'FeedbackReceived',
          place: 'review',
          author: 'reviewer',
          body: 'Handle negative numbers too.',
          commentId: 501,
          comments: [],
          mention: false,
        },
      },
    );
    expect(woke).toEqual({ outcome: 'woke', jobId: jobId });
    await until('the round to end', async () => {
      const events = await b.store.readStream(jobId);
      return events.at(-1)?.state === 'promoted' && events.some((e) => e.type === 'FeedbackReceived');
    });
    expect(b.effects.log).toEqual(
      ['syncBranch:1:r1', 'generate:2', 'applyChanges:2', 'runTests:2', 'answerRound:2:r1'].map(
        (k) => `${jobId}:${k}`,
      ),
    );
  });

  it('given jobs parked before their progress comment caught up, when two workers boot together, then one worker at a time settles each, and each is reported', async () => {
    const url = await freshDatabase();
    // Run with no reporter: both jobs park with their progress unreported.
    const first = worker(url);
    await first.supervisor.boot();
    const jobIds: string[] = [];
    for (const issue of [1, 2]) {
      jobIds.push(await startJob(first, issue));
    }
    await until('both jobs to park', async () => {
      const jobs = await first.store.listJobs();
      return jobs.every((j) => j.state === 'promoted') && jobs.length === 2;
    });
    await first.supervisor.shutdown();
    expect((await first.store.listUnreported()).map((j) => j.jobId).sort()).toEqual([...jobIds].sort());

    // A settle takes a while, as a GitHub write does: two at once for one job would each find no
    // comment and each create one.
    const active = new Map<string, number>();
    const overlaps: string[] = [];
    const settles: string[] = [];
    const reporter: JobObserver = {
      async settled(jobId, _snapshot, version) {
        const now = (active.get(jobId) ?? 0) + 1;
        active.set(jobId, now);
        if (now > 1) overlaps.push(jobId);
        settles.push(jobId);
        await sleep(300);
        await first.store.markReported(jobId, version);
        active.set(jobId, now - 1);
      },
    };
    const observed = [worker(url, {}, 2, [reporter]), worker(url, {}, 2, [reporter])];
    await Promise.all(observed.map((w) => w.supervisor.boot()));
    await until('both jobs to be reported', async () => (await first.store.listUnreported()).length === 0);
    expect(overlaps).toEqual([]);
    expect(new Set(settles)).toEqual(new Set(jobIds));
  });

  it('given a job running on one worker, when another takes a cancel for it, then the running worker stops the effect under way rather than finishing it', async () => {
    const url = await freshDatabase();
    const [a, b] = [worker(url), worker(url)];
    // The first effect waits long, unless its run is stopped: then it hears the abort.
    let aborted: boolean | null = null;
    let started = false;
    const prepare = a.effects.impls.prepare;
    a.effects.impls.prepare = ((input, ctx) =>
      new Promise((resolve, reject) => {
        started = true;
        const done = setTimeout(() => {
          aborted = false;
          resolve(prepare(input, ctx));
        }, 30_000);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(done);
          aborted = true;
          reject(new BootyError('BOOTY_E_EFFECT_TRANSIENT', { src: 'prepare', reason: 'aborted' }));
        });
      })) as typeof prepare;
    await a.supervisor.boot();
    const jobId = await startJob(a, 1);
    // The effect itself, not only the run: a cancel logged before the run reads its log ends the
    // job with no effect to stop.
    await until('the first effect to start', async () => started);

    const cancel = await b.intake.submit(
      { id: 'd-closed', event: 'issues', action: 'closed' },
      {
        kind: 'cancel',
        repo: { forge: 'github' as const, owner: 'acme', name: 'widgets' },
        issue: 1,
        reason: 'closed',
        sender: 'octocat',
      },
    );
    expect(cancel).toEqual({ outcome: 'cancelled', jobIds: [jobId] });
    await until('the running worker to stop the effect', async () => aborted !== null);
    expect(aborted).toBe(true);
    const events = await a.store.readStream(jobId);
    expect(events.map((e) => e.type)).toEqual(['JobRequested', 'JobCancelled']);
    expect((await a.store.getJob(jobId))?.state).toBe('cancelled');
  });

  it('given a worker shut down with a job under way (a rolling deploy), then it hands the job back to the queue at once and another worker finishes it', async () => {
    const url = await freshDatabase();
    const leaving = worker(url, { delayMs: 300 });
    await leaving.supervisor.boot();
    const jobId = await startJob(leaving, 1);
    await until('the first effect to start', async () => leaving.effects.log.length > 0);
    await leaving.supervisor.shutdown();
    // Queued again for anyone, not left leased until its lease lapses.
    const { rows } = await onDatabase(url, (c) => c.query<{ state: string }>('SELECT state FROM pgboss.job'));
    expect(rows).toEqual([{ state: 'created' }]);

    const staying = worker(url);
    await staying.supervisor.boot();
    await until('the job to park', async () => (await staying.store.getJob(jobId))?.state === 'promoted');
    const steps = (await staying.store.readStream(jobId)).map((e) => `${e.type}:${e.data.step ?? ''}`);
    expect(new Set(steps).size).toBe(steps.length);
  });

  it('given a job offered at a busy worker, then an idle worker that looks only once a minute takes it at once, told of the offer', async () => {
    const url = await freshDatabase();
    const busy = worker(url, { delayMs: 1_000 }, 1);
    const idle = worker(url, {}, 1, [], { seconds: 4, pollMs: 60_000 });
    await busy.supervisor.boot();
    const first = await startJob(busy, 1);
    await until('the busy worker to run its job', async () => busy.effects.log.length > 0);
    // The idle worker's first look finds nothing; its next is a minute away.
    await idle.supervisor.boot();
    await sleep(300);
    const second = await startJob(busy, 2);
    await until('the idle worker to run the second job', async () =>
      idle.effects.log.some((k) => k.startsWith(`${second}:`)),
    );
    expect(idle.effects.log.some((k) => k.startsWith(`${first}:`))).toBe(false);
  });

  it('given a job whose gateway died between appending its request and offering it, then a worker offers and runs it after two lease periods', async () => {
    const url = await freshDatabase();
    // A worker that takes webhooks and leases nothing (never booted): the gateway's half, the
    // JobRequested in the log, then its offer lost.
    const gateway = worker(url);
    const jobId = await startJob(gateway, 1);
    await onDatabase(url, (c) => c.query('DELETE FROM pgboss.job'));
    await gateway.supervisor.shutdown();

    const survivor = worker(url);
    // Not through boot, which offers every unfinished job: the sweep a running worker makes.
    (survivor.supervisor as unknown as { leased: { start(): void } }).leased.start();
    await until('the job to park', async () => (await survivor.store.getJob(jobId))?.state === 'promoted');
    expect(gateway.effects.log).toEqual([]);
    expect(survivor.effects.log[0]).toBe(`${jobId}:prepare:0`);
  });

  it('given a worker whose lease lapsed while its effect ran (a long pause), then another worker finishes the job and the first acts no further', async () => {
    const url = await freshDatabase();
    // One slot: the slow worker cannot lease the job again while its own run of it is under way.
    const slow = worker(url, { delayMs: 1_500 }, 1);
    await slow.supervisor.boot();
    const jobId = await startJob(slow, 1);
    await until('the first effect to start', async () => slow.effects.log.length > 0);
    const fast = worker(url);
    await fast.supervisor.boot();
    // The lease lapses as if the worker had paused past it: what pg-boss's maintenance then does to
    // the row (back to retry, for any worker to fetch), done at once.
    await onDatabase(url, (c) => c.query(`UPDATE pgboss.job SET state = 'retry' WHERE state = 'active'`));

    await until('the job to park', async () => (await fast.store.getJob(jobId))?.state === 'promoted');
    await sleep(2_000);
    // The slow worker's effect ended after its lease had gone: nothing of it reached the log.
    const steps = (await fast.store.readStream(jobId)).map((e) => `${e.type}:${e.data.step ?? ''}`);
    expect(new Set(steps).size).toBe(steps.length);
    expect(slow.effects.log).toEqual([`${jobId}:prepare:0`]);
    expect(fast.effects.log[0]).toBe(`${jobId}:prepare:0`);
    expect(fast.effects.log.at(-1)).toMatch(/:promotePr:1:/);
  });
});

describe('a worker that cannot renew', () => {
  it('given renewals that hang (the queue row locked), then the worker stops its run within the lease, keeping the lease, and runs the job again itself once a renewal gets through', async () => {
    const url = await freshDatabase();
    const a = worker(url);
    // The effect waits long, unless its run is stopped: then it hears the abort.
    let started = false;
    let aborted: boolean | null = null;
    let calls = 0;
    const prepare = a.effects.impls.prepare;
    a.effects.impls.prepare = ((input, ctx) =>
      ++calls > 1
        ? prepare(input, ctx)
        : new Promise((resolve, reject) => {
            started = true;
            const done = setTimeout(() => {
              aborted = false;
              resolve(prepare(input, ctx));
            }, 30_000);
            ctx.signal.addEventListener('abort', () => {
              clearTimeout(done);
              aborted ??= true;
              reject(new BootyError('BOOTY_E_EFFECT_TRANSIENT', { src: 'prepare', reason: 'aborted' }));
            });
          })) as typeof prepare;
    await a.supervisor.boot();
    const jobId = await startJob(a, 1);
    await until('the first effect to start', async () => started);

    // Another session holds the leased row: every renewal waits on it and never answers in time.
    const held = await holdRows(url, ACTIVE_LEASES);
    try {
      expect(held.rows).toBe(1);
      const errorsWhenStopped = await until(
        'the run to stop',
        async () => aborted !== null && [...a.errors],
        SETTINGS.seconds * 3000,
      );
      expect(aborted).toBe(true);
      // Stopped while the renewal still hung: no renewal had failed (nor timed out) yet, and the
      // lease is not taken for lapsed: the run is paused, its lease kept.
      expect(errorsWhenStopped.map((e) => (e as BootyError).code ?? String(e))).toEqual([]);
      expect(a.notes.filter((n) => /paused here, keeping its lease/.test(n))).toHaveLength(1);
    } finally {
      await held.release();
    }
    // A renewal gets through: the job runs here again, from its log, and to its end.
    const other = worker(url);
    await other.supervisor.boot();
    await until('the job to park', async () => (await a.store.getJob(jobId))?.state === 'promoted', 30_000);
    expect(a.notes.filter((n) => /runs here again/.test(n))).toHaveLength(1);
    expect(other.effects.log).toEqual([]);
    expect(calls).toBe(2);
    expect(a.effects.log.filter((k) => k.startsWith(`${jobId}:prepare:`))).toHaveLength(1);
  });
});

describe('a draining worker', () => {
  it('given a worker draining with a step under way, then the step finishes and is logged there, the job stops before its next step, and another worker runs the rest, no step twice', async () => {
    const url = await freshDatabase();
    const leaving = worker(url, { delayMs: 800 }, 1);
    await leaving.supervisor.boot();
    const jobId = await startJob(leaving, 1);
    await until('the first effect to start', async () => leaving.effects.log.length > 0);
    expect((await leaving.store.getJob(jobId))?.heldBy).toBe(leaving.name);

    const report = await leaving.supervisor.shutdown({ drainMs: 20_000 });
    expect(report).toEqual({ finishedStep: [jobId], handedBack: [] });
    // The step ran once, here, to its outcome; nothing after it started here.
    expect(leaving.effects.log).toEqual([`${jobId}:prepare:0`]);
    const logged = await leaving.store.readStream(jobId);
    expect(logged.map((e) => `${e.type}:${e.data.step ?? ''}`)).toEqual([
      'JobRequested:',
      'StepSucceeded:prepare',
    ]);
    expect(logged[1]!.meta.worker).toBe(leaving.name);
    // Let go: held by none, and queued for another worker.
    expect((await leaving.store.getJob(jobId))?.heldBy).toBeNull();

    const staying = worker(url);
    await staying.supervisor.boot();
    await until('the job to park', async () => (await staying.store.getJob(jobId))?.state === 'promoted');
    expect(staying.effects.log.filter((k) => k.includes(':prepare:'))).toEqual([]);
    const events = await staying.store.readStream(jobId);
    const steps = events.map((e) => `${e.type}:${e.data.step ?? ''}`);
    expect(new Set(steps).size).toBe(steps.length);
    expect(new Set(events.slice(2).map((e) => e.meta.worker))).toEqual(new Set([staying.name]));
  });

  it('given a step longer than the drain, or a second signal, then the job is handed back with its step unfinished, and says so', async () => {
    const url = await freshDatabase();
    const bounded = worker(url, { delayMs: 5_000 }, 1);
    await bounded.supervisor.boot();
    const first = await startJob(bounded, 1);
    await until('the first effect to start', async () => bounded.effects.log.length > 0);
    expect(await bounded.supervisor.shutdown({ drainMs: 300 })).toEqual({
      finishedStep: [],
      handedBack: [first],
    });
    expect((await bounded.store.readStream(first)).map((e) => e.type)).toEqual(['JobRequested']);

    const hurried = worker(url, { delayMs: 5_000 }, 1);
    await hurried.supervisor.boot();
    await until('the job to start again', async () => hurried.effects.log.length > 0);
    const stopping = hurried.supervisor.shutdown({ drainMs: 60_000 });
    await sleep(100);
    hurried.supervisor.hurry();
    expect(await stopping).toEqual({ finishedStep: [], handedBack: [first] });
    expect((await hurried.store.readStream(first)).map((e) => e.type)).toEqual(['JobRequested']);
    // Without a drain, as before: handed back at once.
    const immediate = worker(url, { delayMs: 5_000 }, 1);
    await immediate.supervisor.boot();
    await until('the job to start again', async () => immediate.effects.log.length > 0);
    expect(await immediate.supervisor.shutdown()).toEqual({ finishedStep: [], handedBack: [first] });
  });
});

describe('a stopped run hands its job on', () => {
  it('given a worker shut down while its effect outcome is being appended, then the lease is held until that append commits, and the effect runs once across workers', async () => {
    const url = await freshDatabase();
    const leaving = worker(url, { delayMs: 300 }, 1);
    await leaving.supervisor.boot();
    const jobId = await startJob(leaving, 1);
    await until('the first effect to start', async () => leaving.effects.log.length > 0);

    // Another session holds the job's row: the effect's outcome, appended, waits on it.
    const held = await holdRows(url, 'SELECT job_id FROM jobs WHERE job_id = $1 FOR UPDATE', [jobId]);
    try {
      await until('the outcome to wait on the lock', async () => {
        const { rows } = await onDatabase(url, (c) =>
          c.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity
             WHERE wait_event_type = 'Lock' AND query LIKE '%booty_append%'`,
          ),
        );
        return rows[0]!.n === 1;
      });
      // A rolling deploy stops the run now; the other worker polls every 100 ms meanwhile.
      const shutdown = leaving.supervisor.shutdown();
      const staying = worker(url);
      await staying.supervisor.boot();
      await sleep(1_000);
      expect(staying.effects.log).toEqual([]);
      await held.release();
      await shutdown;

      await until('the job to park', async () => (await staying.store.getJob(jobId))?.state === 'promoted');
      const prepares = [...leaving.effects.log, ...staying.effects.log].filter((k) =>
        k.includes(':prepare:'),
      );
      expect(prepares).toEqual([`${jobId}:prepare:0`]);
      expect(leaving.effects.log).toEqual([`${jobId}:prepare:0`]);
      expect(staying.effects.log[0]).not.toMatch(/:prepare:/);
    } finally {
      await held.release();
    }
  });
});

describe('events for a job running on a worker', () => {
  it('given a job running on one worker whose log another worker wrote to, when the first takes an event for it, then the event lands in the log and the delivery is answered woke', async () => {
    const url = await freshDatabase();
    const [a, b] = [worker(url), worker(url)];
    // The first effect waits long, unless its run is stopped.
    let starts = 0;
    const prepare = a.effects.impls.prepare;
    a.effects.impls.prepare = ((input, ctx) =>
      new Promise((resolve, reject) => {
        starts += 1;
        const done = setTimeout(() => resolve(prepare(input, ctx)), 30_000);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(done);
          reject(new BootyError('BOOTY_E_EFFECT_TRANSIENT', { src: 'prepare', reason: 'aborted' }));
        });
      })) as typeof prepare;
    await a.supervisor.boot();
    const jobId = await startJob(a, 1);
    await until('the first effect to start', async () => starts === 1);

    // The other worker's gateway writes first; the running worker's runner is now behind the log.
    expect(await b.intake.submit(...issueComment(501))).toEqual({ outcome: 'woke', jobId: jobId });
    expect(await a.intake.submit(...issueComment(502))).toEqual({ outcome: 'woke', jobId: jobId });

    const events = await a.store.readStream(jobId);
    expect(events.filter((e) => e.type === 'FeedbackReceived').map((e) => e.data.commentId)).toEqual([
      501, 502,
    ]);
    // The runner that met the conflict stopped, and the job was offered again: it runs anew from its log.
    await until('the job to run again', async () => starts === 2);
  });
});

describe('the sweep', () => {
  it('given a job that ran a while and was left with work but no queue row (its offer lost after a later append), then a worker offers and runs it', async () => {
    const url = await freshDatabase();
    const leaving = worker(url, { delayMs: 300 });
    await leaving.supervisor.boot();
    const jobId = await startJob(leaving, 1);
    await until('the first effect to be logged', async () => {
      const job = await leaving.store.getJob(jobId);
      return job !== null && job.version > 1;
    });
    await leaving.supervisor.shutdown();
    // Its offer lost (as when a release or an offer failed), and last written a while ago.
    await onDatabase(url, async (c) => {
      await c.query('DELETE FROM pgboss.job');
      await c.query('UPDATE jobs SET updated_at = updated_at - $1 WHERE job_id = $2', [
        SETTINGS.seconds * 3000,
        jobId,
      ]);
    });
    const version = (await leaving.store.getJob(jobId))!.version;
    expect(version).toBeGreaterThan(1);

    const survivor = worker(url);
    // Not through boot, which offers every unfinished job: the sweep a running worker makes.
    (survivor.supervisor as unknown as { leased: { start(): void } }).leased.start();
    await until(
      'the job to park',
      async () => (await survivor.store.getJob(jobId))?.state === 'promoted',
      30_000,
    );
    expect(survivor.effects.log.length).toBeGreaterThan(0);
    const steps = (await survivor.store.readStream(jobId)).map((e) => `${e.type}:${e.data.step ?? ''}`);
    expect(new Set(steps).size).toBe(steps.length);
  });
});

describe('a renewal and a release at once', () => {
  it('given a renewal that finds the lease just let go (its run parked), then no lapse is reported', async () => {
    const url = await freshDatabase();
    const a = worker(url, { delayMs: 300 }, 1);
    await a.supervisor.boot();
    const jobId = await startJob(a, 1);
    await until('the last effect to start', async () => a.effects.log.some((k) => k.includes(':promotePr:')));

    // The row held: the release (as the run parks) and then a renewal queue behind the lock, in that order.
    const waiting = async () => {
      const { rows } = await onDatabase(url, (c) =>
        c.query<{ query: string }>(
          `SELECT query FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND application_name = 'booty leases'`,
        ),
      );
      return rows.map((r) => r.query.trim().split(/\s+/)[0]);
    };
    const held = await holdRows(url, ACTIVE_LEASES);
    try {
      await until('the release to wait', async () => (await waiting()).includes('DELETE'));
      await until('a renewal to wait behind it', async () => (await waiting()).includes('UPDATE'));
      await held.release();
      await until('the lease to be let go', async () => (await waiting()).length === 0);
    } finally {
      await held.release();
    }
    const { rows } = await onDatabase(url, (c) => c.query('SELECT id FROM pgboss.job'));
    expect(rows).toEqual([]);
    // The renewal answered after the release committed: the job was let go, not lost.
    await sleep(SETTINGS.seconds * 400);
    expect((await a.store.getJob(jobId))?.state).toBe('promoted');
    expect(a.errors).toEqual([]);
  });
});
