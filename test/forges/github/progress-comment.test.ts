import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressReporter } from '../../../src/effects/progress-reporter.js';
import { createGitHubEffects } from '../../../src/forges/github/github-effects.js';
import { githubProgress } from '../../../src/forges/github/github-forge.js';
import { replyMarker } from '../../../src/forges/markers.js';
import { foldJob } from '../../../src/machines/fold.js';
import { jobView } from '../../../src/machines/job-context.js';
import { renderProgress } from '../../../src/views/progress-render.js';
import { harness } from '../../support/job-harness.js';
import { sampleDir, simFixture } from './sim-fixture.js';

// The progress comment is a projection of the job's log: whatever point the log stands at, and
// however many times booty restarted on the way, the issue carries exactly one comment for the job,
// showing that point.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function finishedJobLog() {
  const h = harness({ tests: [false, true] });
  const r = await h.request();
  if (r.outcome !== 'created') throw new Error(r.outcome);
  await h.supervisor.whenFinished(r.jobId);
  return { store: h.store, jobId: r.jobId, events: await h.store.readStream(r.jobId) };
}

async function simWithIssue() {
  const f = await simFixture();
  closers.push(() => f.sim.close());
  await f.sim.createRepo('acme', 'widgets', { fromDir: sampleDir() });
  f.sim.createIssue('acme', 'widgets', { title: 'Add an add() function' });
  f.sim.createIssue('acme', 'widgets', { title: 'Someone else', author: 'alice' });
  return f;
}

const markerComments = (sim: Awaited<ReturnType<typeof simWithIssue>>['sim'], jobId: string) =>
  sim.comments('acme', 'widgets', 1).filter((c) => c.body.includes(`<!-- booty:progress job=${jobId} -->`));

describe('progress comment', () => {
  it('leaves exactly one comment, showing the latest state, after a restart in every state', async () => {
    const { store, jobId, events } = await finishedJobLog();
    const { sim, clients } = await simWithIssue();
    // The very first create loses its reply, and one edit meets a 502: both must heal.
    sim.fault('issues/create-comment', { kind: 'lost-reply' });
    sim.fault('issues/update-comment', { kind: 'bad-gateway' });
    const states: string[] = [];

    for (let version = 1; version <= events.length; version++) {
      const reporter = createProgressReporter({ comments: githubProgress(clients), store, retryDelayMs: 1 });
      const snapshot = foldJob(events.slice(0, version));
      reporter.changed({ jobId, version, snapshot });
      await reporter.idle(jobId);

      const comments = markerComments(sim, jobId);
      expect(comments).toHaveLength(1);
      expect(comments[0]!.body).toBe(renderProgress(snapshot));
      states.push(String(snapshot.value));
    }

    expect(new Set(states)).toEqual(
      new Set([
        'preparing',
        'baselining',
        'analyzing',
        'generating',
        'applying',
        'testing',
        'refining',
        'openingPr',
        'promoting',
        'promoted',
      ]),
    );
    expect(sim.comments('acme', 'widgets')).toHaveLength(1);
    expect(sim.reactions('acme', 'widgets', 1).map((r) => [r.content, r.author])).toEqual([
      ['eyes', 'booty-bot'],
    ]);
    const created = sim.requests().filter((r) => r.operation === 'issues/create-comment');
    expect(created.map((r) => r.status)).toEqual([0]);
  });

  it('coalesces a burst of changes into one edit with the latest state, then marks the job reported', async () => {
    const { store, jobId, events } = await finishedJobLog();
    const { sim, clients } = await simWithIssue();
    const reporter = createProgressReporter({ comments: githubProgress(clients), store, retryDelayMs: 1 });

    for (let version = 1; version < events.length; version++) {
      reporter.changed({ jobId, version, snapshot: foldJob(events.slice(0, version)) });
    }
    const final = foldJob(events);
    await reporter.settled(jobId, final, events.length);

    const ops = sim.requests().map((r) => r.operation);
    expect(ops.filter((o) => o === 'issues/create-comment')).toHaveLength(1);
    // Every state arrives before the first write starts: the comment is made once, with the final state.
    expect(ops.filter((o) => o === 'issues/update-comment')).toHaveLength(0);
    expect(markerComments(sim, jobId).map((c) => c.body)).toEqual([renderProgress(final)]);
    expect((await store.getJob(jobId))?.reportedVersion).toBe(events.length);
    expect((await store.listUnreported()).map((j) => j.jobId)).not.toContain(jobId);
  });

  it('edits a running job at most once per interval, and writes its last state at once', async () => {
    const { store, jobId, events } = await finishedJobLog();
    const { sim, clients } = await simWithIssue();
    const reporter = createProgressReporter({
      comments: githubProgress(clients),
      store,
      retryDelayMs: 1,
      minIntervalMs: 60_000,
    });
    const edits = () =>
      sim.requests().filter((r) => /issues\/(create|update)-comment/.test(r.operation ?? ''));

    reporter.changed({ jobId, version: 1, snapshot: foldJob(events.slice(0, 1)) });
    await vi.waitFor(() => expect(edits()).toHaveLength(1));
    for (let version = 2; version < events.length; version++) {
      reporter.changed({ jobId, version, snapshot: foldJob(events.slice(0, version)) });
    }
    // Within the interval nothing more is sent, however many changes arrive.
    await new Promise((r) => setTimeout(r, 50));
    expect(edits()).toHaveLength(1);

    const final = foldJob(events);
    await reporter.settled(jobId, final, events.length);
    expect(edits().map((r) => r.operation)).toEqual(['issues/create-comment', 'issues/update-comment']);
    expect(markerComments(sim, jobId).map((c) => c.body)).toEqual([renderProgress(final)]);
  });

  it('given changes that arrive out of log order, then the comment shows the newest, never an older one after it', async () => {
    const { store, jobId, events } = await finishedJobLog();
    const { sim, clients } = await simWithIssue();
    const reporter = createProgressReporter({
      comments: githubProgress(clients),
      store,
      retryDelayMs: 1,
      minIntervalMs: 0,
    });
    const at = (version: number) => ({ jobId, version, snapshot: foldJob(events.slice(0, version)) });

    reporter.changed(at(4));
    await reporter.idle(jobId);
    reporter.changed(at(2));
    reporter.changed(at(3));
    await reporter.idle(jobId);

    expect(markerComments(sim, jobId).map((c) => c.body)).toEqual([renderProgress(at(4).snapshot)]);
    expect(sim.requests().filter((r) => r.operation === 'issues/update-comment')).toEqual([]);
  });

  it('given an edit that fails and a newer change before its retry, then the retry writes the newer state, not the older one again', async () => {
    const { store, jobId, events } = await finishedJobLog();
    const { sim, clients } = await simWithIssue();
    const reporter = createProgressReporter({
      comments: githubProgress(clients),
      store,
      retryDelayMs: 1_500,
      minIntervalMs: 0,
    });
    const at = (version: number) => ({ jobId, version, snapshot: foldJob(events.slice(0, version)) });
    const updates = () => sim.requests().filter((r) => r.operation === 'issues/update-comment');
    reporter.changed(at(1));
    await reporter.idle(jobId);

    sim.fault('issues/update-comment', { kind: 'bad-gateway' });
    reporter.changed(at(2));
    await vi.waitFor(() => expect(updates()).toHaveLength(1));
    reporter.changed(at(3));
    await reporter.idle(jobId);

    expect(updates().map((r) => r.status)).toEqual([502, 200]);
    expect(markerComments(sim, jobId).map((c) => c.body)).toEqual([renderProgress(at(3).snapshot)]);
  });

  it('given a change another worker runs the job for, then nothing is written and nothing of the job is kept', async () => {
    const { store, jobId, events } = await finishedJobLog();
    const { sim, clients } = await simWithIssue();
    const reporter = createProgressReporter({ comments: githubProgress(clients), store, retryDelayMs: 1 });

    reporter.changed({ jobId, version: 2, snapshot: foldJob(events.slice(0, 2)), runsHere: false });
    await reporter.idle();

    expect(sim.requests().filter((r) => r.method !== 'GET')).toEqual([]);
    expect(reporter.held()).toEqual([]);
  });

  it('given a job that leaves this worker while its first edit is in flight, then the edit after it is never sent and the leaving does not wait for the interval', async () => {
    const { store, jobId, events } = await finishedJobLog();
    const { sim, clients } = await simWithIssue();
    // The first edit goes on only when the test says: the job leaves while it is under way.
    let goOn: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      goOn = resolve;
    });
    let asked = false;
    const gated = Object.assign(Object.create(clients), {
      forJob: async (job: Parameters<typeof clients.forJob>[0]) => {
        asked = true;
        await gate;
        return clients.forJob(job);
      },
    }) as typeof clients;
    const reporter = createProgressReporter({
      comments: githubProgress(gated),
      store,
      retryDelayMs: 1,
      minIntervalMs: 3_600_000,
    });
    reporter.changed({ jobId, version: 1, snapshot: foldJob(events.slice(0, 1)) });
    await vi.waitFor(() => expect(asked).toBe(true));
    reporter.changed({ jobId, version: 2, snapshot: foldJob(events.slice(0, 2)) });

    const left = reporter.leaving(jobId);
    goOn();
    await left;
    await reporter.idle();
    expect(markerComments(sim, jobId).map((c) => c.body)).toEqual([
      renderProgress(foldJob(events.slice(0, 1))),
    ]);
    expect(reporter.held()).toEqual([]);
  });

  it('given a job that leaves this worker while its next edit waits, then that edit is never sent and nothing of the job is kept', async () => {
    const { store, jobId, events } = await finishedJobLog();
    const { sim, clients } = await simWithIssue();
    // An interval far past the test's own timeout: a leaving that waited it out fails the test.
    const reporter = createProgressReporter({
      comments: githubProgress(clients),
      store,
      retryDelayMs: 1,
      minIntervalMs: 3_600_000,
    });
    const edits = () =>
      sim.requests().filter((r) => /issues\/(create|update)-comment/.test(r.operation ?? ''));
    reporter.changed({ jobId, version: 1, snapshot: foldJob(events.slice(0, 1)) });
    await vi.waitFor(() => expect(edits()).toHaveLength(1));
    reporter.changed({ jobId, version: 2, snapshot: foldJob(events.slice(0, 2)) });

    // Not after the interval: at once, and the edit waiting for it is dropped.
    await reporter.leaving(jobId);
    await reporter.idle();
    expect(edits().map((r) => r.operation)).toEqual(['issues/create-comment']);
    expect(reporter.held()).toEqual([]);
  });

  it('given a job whose run starts here, then its comment shows the log as it stands before any change', async () => {
    const { store, jobId, events } = await finishedJobLog();
    const { sim, clients } = await simWithIssue();
    const reporter = createProgressReporter({ comments: githubProgress(clients), store, retryDelayMs: 1 });

    reporter.running(jobId);
    await reporter.idle(jobId);

    expect(markerComments(sim, jobId).map((c) => c.body)).toEqual([renderProgress(foldJob(events))]);
  });

  it('links the comment to the job’s page at the address people reach booty by', async () => {
    const { store, jobId, events } = await finishedJobLog();
    const { sim, clients } = await simWithIssue();
    const reporter = createProgressReporter({
      comments: githubProgress(clients),
      store,
      retryDelayMs: 1,
      publicUrl: 'https://ops.example.com/booty/',
    });
    const final = foldJob(events);
    await reporter.settled(jobId, final, events.length);

    const url = `https://ops.example.com/booty/jobs/${jobId}/view`;
    expect(markerComments(sim, jobId).map((c) => c.body)).toEqual([
      renderProgress(final, { jobViewUrl: url }),
    ]);
    expect(markerComments(sim, jobId)[0]!.body).toContain(`[the job view](${url})`);
  });

  it("reads the issue, and its discussion without booty's own comments (progress, replies)", async () => {
    const { store, jobId, events } = await finishedJobLog();
    const { sim, clients } = await simWithIssue();
    const gh = await clients.forRepo({ owner: 'acme', name: 'widgets' });
    await gh.rest.issues.createComment({
      owner: 'acme',
      repo: 'widgets',
      issue_number: 1,
      body: 'Use BigInt please',
    });
    await gh.rest.issues.createComment({
      owner: 'acme',
      repo: 'widgets',
      issue_number: 1,
      body: `${replyMarker(jobId, 1, 9)}\n@someone Done in abc1234.`,
    });
    const reporter = createProgressReporter({ comments: githubProgress(clients), store, retryDelayMs: 1 });
    await reporter.settled(jobId, foldJob(events), events.length);

    const effects = createGitHubEffects({ clients });
    const comments = await effects.listIssueComments(jobView(foldJob(events).context));
    const issue = await effects.getIssue({ owner: 'acme', name: 'widgets' }, 2);

    expect(sim.comments('acme', 'widgets', 1)).toHaveLength(3);
    expect(comments).toEqual([{ author: 'booty-bot', body: 'Use BigInt please' }]);
    expect(issue).toEqual({
      number: 2,
      title: 'Someone else',
      body: '',
      url: `${sim.url}/acme/widgets/issues/2`,
      state: 'open',
      labels: [],
      author: 'alice',
    });
  });
});
