import { afterEach, describe, expect, it } from 'vitest';
import { startGitHubSimulator } from '../../sim/github/github-simulator.js';
import { createProgressReporter, type ProgressReporter } from '../../src/effects/progress-reporter.js';
import { type JobObserver, Supervisor } from '../../src/engine/supervisor.js';
import { BootyError } from '../../src/errors.js';
import { createGitHubClients } from '../../src/forges/github/clients.js';
import { githubProgress } from '../../src/forges/github/github-forge.js';
import { Intake } from '../../src/intake/deliveries.js';
import { foldJob } from '../../src/machines/fold.js';
import type { EventStore } from '../../src/store/event-store.js';
import { readJobLog } from '../../src/store/job-log.js';
import { PostgresEventStore } from '../../src/store/postgres/postgres-event-store.js';
import { renderProgress } from '../../src/views/progress-render.js';
import { sampleDir } from '../forges/github/sim-fixture.js';
import { harness, issueComment, sampleRequest, tempDir } from '../support/job-harness.js';
import { freshDatabase } from '../support/postgres-database.js';
import { scriptedEffects } from '../support/scripted-effects.js';
import { until } from '../support/until.js';

// Which worker writes a job's progress comment. With many workers on one PostgreSQL database, the
// one running the job does, alone: another worker whose gateway appends an event to the job (a
// comment, a close) writes nothing to GitHub for it and keeps nothing of it, and a job the event
// left parked or ended is settled by whichever worker leases it next. On SQLite the one process
// shows such an event at once, as before, and lets go of the job once it is settled.

const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** The GitHub simulator with acme/widgets and its issue #1; each worker acts as its own login. */
async function github() {
  const tokens = { a: `ghp_${'a'.repeat(36)}`, b: `ghp_${'b'.repeat(36)}` };
  const sim = await startGitHubSimulator({
    dir: tempDir('booty-ghsim-'),
    tokens: [
      { token: tokens.a, login: 'worker-a' },
      { token: tokens.b, login: 'worker-b' },
    ],
  });
  closing.push(() => sim.close());
  await sim.createRepo('acme', 'widgets', { fromDir: sampleDir() });
  sim.createIssue('acme', 'widgets', { title: 'Add an add() function' });
  const clients = (who: keyof typeof tokens) =>
    createGitHubClients({ apiUrl: sim.url, auth: { kind: 'token', token: tokens[who] }, paced: false });
  const progress = (jobId: string) =>
    sim.comments('acme', 'widgets', 1).filter((c) => c.body.includes(`booty:progress job=${jobId}`));
  /** What a worker asked of GitHub. */
  const asked = (login: string) => sim.requests().filter((r) => r.login === login);
  return { sim, clients, progress, asked };
}

type GitHub = Awaited<ReturnType<typeof github>>;

/**
 * A worker on the database: its store with leases, supervisor, scripted effects and progress
 * reporter, and any further observers after it.
 */
function worker(url: string, gh: GitHub, who: 'a' | 'b', observers: JobObserver[] = []) {
  const store = new PostgresEventStore(url, { leases: { seconds: 4, pollMs: 100 } });
  const effects = scriptedEffects();
  const reporter = createProgressReporter({
    comments: githubProgress(gh.clients(who)),
    store,
    retryDelayMs: 1,
    minIntervalMs: 50,
  });
  const errors: unknown[] = [];
  const supervisor = new Supervisor({
    store,
    effects: effects.impls,
    observers: [reporter, ...observers],
    settings: { retryBaseMs: 1, retryCapMs: 5 },
    onError: (err) => errors.push(err),
  });
  const intake = new Intake(supervisor);
  closing.push(async () => {
    await supervisor.shutdown();
    await reporter.idle();
    await store.close();
  });
  return { store, supervisor, intake, effects, reporter, errors };
}

const labeled = [
  { id: 'd-labeled', event: 'issues', action: 'labeled' },
  { kind: 'request' as const, request: sampleRequest(1) },
] as const;

const closed: Parameters<Intake['submit']> = [
  { id: 'd-closed', event: 'issues', action: 'closed' },
  {
    kind: 'cancel',
    repo: { forge: 'github' as const, owner: 'acme', name: 'widgets' },
    issue: 1,
    reason: 'closed',
    sender: 'octocat',
  },
];

/**
 * The comment shows the job as its whole log stands, the job is reported up to it, and the reporter
 * lets it go (just after the report's write returns: the wait covers that turn of the event loop).
 */
async function shownAsLogged(gh: GitHub, store: EventStore, reporter: ProgressReporter, jobId: string) {
  const events = await readJobLog(store, jobId);
  await until('the comment to show the whole log, and the reporter to let the job go', async () => {
    const [comment] = gh.progress(jobId);
    return (
      comment?.body === renderProgress(foldJob(events)) &&
      (await store.listUnreported()).length === 0 &&
      reporter.held().length === 0
    );
  });
  expect(gh.progress(jobId)).toHaveLength(1);
}

describe('the progress comment on many workers', () => {
  it('given a job running on one worker, when another worker’s gateway requests it and takes comments for it, then only the running worker writes its comment, and the other keeps nothing of it', async () => {
    const url = await freshDatabase();
    const gh = await github();
    const [a, b] = [worker(url, gh, 'a'), worker(url, gh, 'b')];
    // The first effect waits for the test (or for its run to stop), so comments come while it runs.
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let starts = 0;
    const prepare = a.effects.impls.prepare;
    a.effects.impls.prepare = ((input, ctx) => {
      starts += 1;
      return new Promise((resolve, reject) => {
        void gate.then(() => resolve(prepare(input, ctx)));
        ctx.signal.addEventListener('abort', () =>
          reject(new BootyError('BOOTY_E_EFFECT_TRANSIENT', { src: 'prepare', reason: 'aborted' })),
        );
      });
    }) as typeof prepare;
    // Only the first worker leases: the second takes webhooks only.
    await a.supervisor.boot();
    const created = await b.intake.submit(...labeled);
    if (created.outcome !== 'created') throw new Error(created.outcome);
    const { jobId } = created;
    await until('the job to run on the first worker', async () => starts === 1);
    // Shown at once by the worker running it, before its first step ends.
    await until('the comment to be written', async () => gh.progress(jobId).length === 1);

    expect(await b.intake.submit(...issueComment(501))).toEqual({ outcome: 'woke', jobId });
    expect(await b.intake.submit(...issueComment(502))).toEqual({ outcome: 'woke', jobId });
    await b.reporter.idle();
    expect(b.reporter.held()).toEqual([]);
    open();

    await until('the job to park', async () => (await a.store.getJob(jobId))?.state === 'promoted');
    await shownAsLogged(gh, a.store, a.reporter, jobId);
    expect(gh.asked('worker-b')).toEqual([]);
    expect(b.reporter.held()).toEqual([]);
    expect(gh.asked('worker-a').length).toBeGreaterThan(0);
  });

  it('given a parked job, when another worker’s gateway takes the close of its issue, then the worker that leases it next settles it: the comment shows it cancelled and the job is reported', async () => {
    const url = await freshDatabase();
    const gh = await github();
    const [a, b] = [worker(url, gh, 'a'), worker(url, gh, 'b')];
    await a.supervisor.boot();
    const created = await a.intake.submit(...labeled);
    if (created.outcome !== 'created') throw new Error(created.outcome);
    const { jobId } = created;
    await until('the job to park, reported', async () => {
      const job = await a.store.getJob(jobId);
      return job?.state === 'promoted' && job.reportedVersion === job.version;
    });

    expect(await b.intake.submit(...closed)).toEqual({ outcome: 'cancelled', jobIds: [jobId] });
    await b.reporter.idle();
    expect(b.reporter.held()).toEqual([]);

    await until('the job to be cancelled', async () => (await a.store.getJob(jobId))?.final);
    await shownAsLogged(gh, a.store, a.reporter, jobId);
    expect(gh.progress(jobId)[0]!.body).toMatch(/cancel/i);
    expect(gh.asked('worker-b')).toEqual([]);
  });

  it('given a job parking on one worker, when another worker’s gateway takes the close of its issue before the run lets go, then the job is offered again as it is let go and settled: the comment shows it cancelled and the job is reported', async () => {
    const url = await freshDatabase();
    const gh = await github();
    // The first settle (the job parked) is held open after the reporter's, until the test lets go.
    let held: () => void = () => undefined;
    const holding = new Promise<void>((resolve) => {
      held = resolve;
    });
    let letGo: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    let runs = 0;
    let settles = 0;
    const holder: JobObserver = {
      running: () => {
        runs += 1;
      },
      settled: async () => {
        settles += 1;
        if (settles > 1) return;
        held();
        await gate;
      },
    };
    const [a, b] = [worker(url, gh, 'a', [holder]), worker(url, gh, 'b')];
    // Only the first worker leases: the second takes webhooks only.
    await a.supervisor.boot();
    const created = await b.intake.submit(...labeled);
    if (created.outcome !== 'created') throw new Error(created.outcome);
    const { jobId } = created;
    await holding;
    const parked = await a.store.getJob(jobId);
    expect(parked).toMatchObject({ state: 'promoted', reportedVersion: parked?.version });

    // Its lease is still held: the close's offer finds it leased and does nothing.
    expect(await b.intake.submit(...closed)).toEqual({ outcome: 'cancelled', jobIds: [jobId] });
    expect((await a.store.getJob(jobId))?.final).toBe(true);
    letGo();

    await shownAsLogged(gh, a.store, a.reporter, jobId);
    const job = await a.store.getJob(jobId);
    expect(job?.reportedVersion).toBe(job?.version);
    expect(gh.progress(jobId)[0]!.body).toMatch(/cancel/i);
    expect(runs).toBe(2);
    expect(settles).toBe(2);
    expect(gh.asked('worker-b')).toEqual([]);
    expect(b.reporter.held()).toEqual([]);
  });
});

describe('the progress comment in one process (SQLite)', () => {
  it('given a parked job, when its issue is closed, then the comment shows it cancelled at once, the job is reported, and the reporter keeps nothing of it', async () => {
    const gh = await github();
    // The reporter writes through the harness's store, made with the supervisor it observes.
    const store: Pick<EventStore, 'markReported' | 'readStream'> = {
      markReported: (id, version) => h.store.markReported(id, version),
      readStream: (...read) => h.store.readStream(...read),
    };
    const reporter = createProgressReporter({
      comments: githubProgress(gh.clients('a')),
      store,
      retryDelayMs: 1,
    });
    const h = harness({}, { observers: [reporter] });
    const created = await h.intake.submit(...labeled);
    if (created.outcome !== 'created') throw new Error(created.outcome);
    const { jobId } = created;
    await h.supervisor.whenFinished(jobId);
    expect((await h.store.getJob(jobId))?.state).toBe('promoted');
    await reporter.idle();

    expect(await h.intake.submit(...closed)).toEqual({ outcome: 'cancelled', jobIds: [jobId] });
    await shownAsLogged(gh, h.store, reporter, jobId);
    expect(gh.progress(jobId)[0]!.body).toMatch(/cancel/i);
  });
});
