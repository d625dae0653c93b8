import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Responder } from '../../sim/anthropic/anthropic-simulator.js';
import { demoResponder } from '../../src/demo/demo-script.js';
import { foldSteps } from '../../src/machines/fold.js';
import { stateName } from '../../src/machines/job-states.js';
import { e2eWorld, SECRET } from './e2e-world.js';

// Whole jobs through booty in one process: webhooks from the local GitHub, real git pushes to it,
// real test runs of the sample repository, and the scripted model over HTTP.

type World = Awaited<ReturnType<typeof e2eWorld>>;
let world: World | null = null;
afterEach(async () => {
  await world?.close();
  world = null;
});

describe('end to end in one process', () => {
  it('given a repeated delivery, then it is answered as a duplicate and there is still one job and one PR', async () => {
    world = await e2eWorld('pass');
    const booty = await world.startInProcess();
    const delivery = await world.label();
    expect(delivery.status).toBe(202);
    const [job] = await booty.store.listJobs();
    expect((await booty.server.supervisor.whenFinished(job!.jobId)).value).toBe('promoted');

    const again = await world.github.redeliver(delivery.id);
    expect(again.status).toBe(200);
    expect(await booty.store.listJobs()).toHaveLength(1);
    expect(world.pulls()).toHaveLength(1);
    expect(world.pulls()[0]).toMatchObject({
      draft: false,
      head: job ? expect.stringMatching(/^booty\/issue-1-/) : '',
    });
    await booty.server.supervisor.onIdle();
    expect(world.comments().filter((c) => c.body.includes('booty:progress'))).toHaveLength(1);
  });

  it('given the label is removed mid-job, then the job ends cancelled, opens no PR, and says so on the issue', async () => {
    world = await e2eWorld('pass');
    // The scripted generation waits, so the job is still thinking when the label goes.
    world.anthropic.setResponder(slowChanges());
    const booty = await world.startInProcess();
    const generating = new Promise<void>((resolve) => {
      const timer = setInterval(async () => {
        if ((await booty.store.listJobs())[0]?.state === 'generating') {
          clearInterval(timer);
          resolve();
        }
      }, 20);
    });
    await world.label();
    await generating;
    const unlabel = await world.unlabel();
    expect(unlabel.status).toBe(202);
    const [job] = await booty.store.listJobs();
    const snapshot = await booty.server.supervisor.whenFinished(job!.jobId);
    expect(stateName(snapshot)).toBe('cancelled');
    expect(snapshot.context.outcome?.reason).toBe('unlabeled');
    expect(world.pulls()).toEqual([]);
    await booty.runtime!.reporter.idle(job!.jobId);
    const progress = world.comments().find((c) => c.body.includes('booty:progress'));
    expect(progress?.body).toContain('Cancelled: the trigger label was removed');
  });

  it('given an unreachable GitHub API, then the job retries with backoff, fails naming the URL, and booty keeps serving', async () => {
    world = await e2eWorld('pass');
    const unreachable = 'http://127.0.0.1:9';
    const booty = await world.startInProcess({ GITHUB_API_URL: unreachable });
    // GitHub cannot reach us either: post the delivery the way GitHub would.
    const payload = JSON.stringify(labeledPayload(world.issue));
    const post = (id: string, body = payload) =>
      fetch(`${booty.server.url}/webhooks`, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'issues',
          'x-github-delivery': id,
          'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
        },
      });
    const res = await post('unreachable-1');
    expect(res.status).toBe(202);
    const { jobId } = (await res.json()) as { jobId: string };
    const snapshot = await booty.server.supervisor.whenFinished(jobId);
    expect(stateName(snapshot)).toBe('failed');
    expect(snapshot.context.outcome?.reason).toBe('error');
    expect(snapshot.context.outcome?.message).toContain('127.0.0.1:9');
    const log = await booty.store.readStream(jobId);
    const errors = log.filter((e) => e.type === 'StepFailed' && e.data.step === 'prepare');
    expect(errors.map((e) => (e.data.error as { retryable: boolean }).retryable)).toEqual([true, true, true]);
    // Each retry was scheduled from the failure's own time, twice as far as the one before, and
    // the next try did not start before its deadline.
    const steps = foldSteps(log);
    const deadlines = steps
      .filter((st, i) => st.type === 'StepFailed' && log[i]!.data.step === 'prepare')
      .map((st) => st.snapshot.context.error);
    const failedAt = errors.map((e) => (e.data.error as { at: number }).at);
    expect(deadlines.slice(0, 2).map((r, i) => r!.notBefore! - failedAt[i]!)).toEqual([20, 40]);
    expect(failedAt[1]).toBeGreaterThanOrEqual(deadlines[0]!.notBefore!);
    expect(failedAt[2]).toBeGreaterThanOrEqual(deadlines[1]!.notBefore!);

    expect((await fetch(`${booty.server.url}/healthz`)).status).toBe(200);
    const other = await post('unreachable-2', JSON.stringify(labeledPayload(world.issue + 1)));
    expect(other.status).toBe(202);
  });
});

function labeledPayload(issue: number) {
  return {
    action: 'labeled',
    label: { name: 'booty' },
    issue: {
      number: issue,
      title: 'Add parseDuration',
      body: 'please',
      html_url: `https://github.test/demo/tiny-durations/issues/${issue}`,
      state: 'open',
      labels: [{ name: 'booty' }],
    },
    repository: { name: 'tiny-durations', full_name: 'demo/tiny-durations', owner: { login: 'demo' } },
    sender: { login: 'octocat' },
  };
}

/** The pass scenario's model, taking its time over every change. */
const slowChanges = (): Responder => async (request) => {
  const turn = await demoResponder('pass')(request);
  return request.toolName === 'submit_changes' && turn && 'answer' in turn
    ? { ...turn, delayMs: 1500 }
    : turn;
};
