import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closedPayload,
  deliver,
  example,
  labelPayload,
  newDeliveryId,
  PREVIOUS_SECRET,
  startTestServer,
  type TestServer,
} from './gateway-harness.js';

// GitHub's example deliveries, signed and posted over HTTP to a listening gateway whose jobs wait in
// `preparing` until released, so "active" is a fact and not a race.

let s: TestServer;
beforeAll(async () => {
  // Enough slots that every gated job runs: a cancel then reaches a live actor mid-effect.
  s = await startTestServer({
    gated: true,
    env: { BOOTY_REPOS: 'codertocat/*,acme/widgets', BOOTY_CONCURRENCY: '32' },
  });
});
afterAll(() => s.close());

const jobsFor = async (repo: string, issue: number) =>
  (await s.store.listJobs()).filter((j) => j.repo === repo && j.issue === issue);

describe('POST /webhooks', () => {
  it('starts a job for the trigger label on an allowed repository and answers 202 with its id', async () => {
    const r = await deliver(s.url, { payload: labelPayload('labeled', { issue: 101 }) });
    expect(r.status).toBe(202);
    expect(Object.keys(r.body)).toEqual(['jobId']);
    const [first] = await s.store.readStream(r.body.jobId);
    expect(first).toMatchObject({
      type: 'JobRequested',
      state: 'preparing',
      meta: { deliveryId: r.deliveryId },
      data: {
        repo: { owner: 'Codertocat', name: 'Hello-World' },
        issue: { number: 101, title: 'Spelling error in the README file' },
        triggerLabel: 'booty',
        sender: 'Codertocat',
        installationId: null,
        deliveryId: r.deliveryId,
      },
    });
  });

  it('reads a form-encoded delivery (payload=...) the same way', async () => {
    const r = await deliver(s.url, { payload: labelPayload('labeled', { issue: 102 }), form: true });
    expect(r.status).toBe(202);
    expect((await jobsFor('Codertocat/Hello-World', 102)).map((j) => j.jobId)).toEqual([r.body.jobId]);
  });

  it('accepts a delivery signed with the previous secret during a rotation', async () => {
    const r = await deliver(s.url, {
      payload: labelPayload('labeled', { issue: 103 }),
      secret: PREVIOUS_SECRET,
    });
    expect(r.status).toBe(202);
    expect(await jobsFor('Codertocat/Hello-World', 103)).toHaveLength(1);
  });

  it('ignores the trigger label on a repository BOOTY_REPOS does not allow', async () => {
    const r = await deliver(s.url, { payload: labelPayload('labeled', { repo: 'evil/repo', issue: 1 }) });
    expect(r).toMatchObject({ status: 202, body: { ignored: true } });
    expect(r.body.reason).toContain('evil/repo is not allowed by BOOTY_REPOS');
    expect(await jobsFor('evil/repo', 1)).toEqual([]);
  });

  it('ignores another label, and other events', async () => {
    const bug = await deliver(s.url, { payload: labelPayload('labeled', { label: 'bug', issue: 104 }) });
    expect(bug).toMatchObject({ status: 202, body: { ignored: true } });
    const opened = await deliver(s.url, { payload: example('issues', 'opened') });
    expect(opened).toMatchObject({ status: 202, body: { ignored: true } });
    const ping = await deliver(s.url, { event: 'ping', payload: example('ping') });
    expect(ping).toMatchObject({ status: 202, body: { ignored: true, reason: 'event ping starts nothing' } });
    const comment = await deliver(s.url, { event: 'issue_comment', payload: example('issue_comment') });
    expect(comment).toMatchObject({ status: 202, body: { ignored: true } });
    expect(await jobsFor('Codertocat/Hello-World', 104)).toEqual([]);
  });

  it('does not start a second job when the issue is labeled again while one is active, and says so', async () => {
    const first = await deliver(s.url, {
      payload: labelPayload('labeled', { repo: 'acme/widgets', issue: 7 }),
    });
    const again = await deliver(s.url, {
      payload: labelPayload('labeled', { repo: 'acme/widgets', issue: 7 }),
    });
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.body).toEqual({
      jobId: first.body.jobId,
      alreadyActive: true,
      message: `acme/widgets#7 already has an active job ${first.body.jobId}; no second job was started`,
    });
    expect((await jobsFor('acme/widgets', 7)).map((j) => j.jobId)).toEqual([first.body.jobId]);
  });

  it('cancels the active job when the trigger label is removed', async () => {
    const started = await deliver(s.url, { payload: labelPayload('labeled', { issue: 201 }) });
    const removed = await deliver(s.url, { payload: labelPayload('unlabeled', { issue: 201 }) });
    expect(removed).toMatchObject({ status: 202, body: { cancelled: [started.body.jobId] } });
    const final = await s.supervisor.whenFinished(started.body.jobId);
    expect(final.value).toBe('cancelled');
    const log = await s.store.readStream(started.body.jobId);
    expect(log.at(-1)).toMatchObject({
      type: 'JobCancelled',
      state: 'cancelled',
      data: { reason: 'unlabeled', sender: 'Codertocat', deliveryId: removed.deliveryId },
    });
    expect(await s.store.getJob(started.body.jobId)).toMatchObject({ final: true, state: 'cancelled' });
  });

  it('cancels the active job when the issue is closed', async () => {
    const started = await deliver(s.url, { payload: labelPayload('labeled', { issue: 202 }) });
    const closed = await deliver(s.url, { payload: closedPayload({ issue: 202 }) });
    expect(closed).toMatchObject({ status: 202, body: { cancelled: [started.body.jobId] } });
    await s.supervisor.whenFinished(started.body.jobId);
    expect((await s.store.readStream(started.body.jobId)).at(-1)).toMatchObject({
      type: 'JobCancelled',
      state: 'cancelled',
      data: { reason: 'closed' },
    });
  });

  it('ignores removing another label, and closing an issue with no job', async () => {
    const other = await deliver(s.url, { payload: labelPayload('unlabeled', { label: 'bug', issue: 203 }) });
    expect(other).toMatchObject({ status: 202, body: { ignored: true } });
    const closed = await deliver(s.url, { payload: closedPayload({ issue: 203 }) });
    expect(closed).toMatchObject({
      status: 202,
      body: { ignored: true, reason: 'no active job for this issue' },
    });
  });

  it('answers a repeated delivery with 200 {duplicate: true} and changes nothing', async () => {
    const deliveryId = newDeliveryId();
    const payload = labelPayload('labeled', { issue: 301 });
    const first = await deliver(s.url, { payload, deliveryId });
    const repeat = await deliver(s.url, { payload, deliveryId });
    expect(first.status).toBe(202);
    expect(repeat).toMatchObject({ status: 200, body: { duplicate: true } });
    expect(await jobsFor('Codertocat/Hello-World', 301)).toHaveLength(1);
  });

  it('creates exactly one job from a storm of 50 concurrent copies of one delivery', async () => {
    const deliveryId = newDeliveryId();
    const payload = labelPayload('labeled', { issue: 302 });
    const replies = await Promise.all(
      Array.from({ length: 50 }, () => deliver(s.url, { payload, deliveryId })),
    );
    const created = replies.filter((r) => r.status === 202);
    const duplicates = replies.filter((r) => r.status === 200 && r.body.duplicate === true);
    expect(created).toHaveLength(1);
    expect(duplicates).toHaveLength(49);
    expect((await jobsFor('Codertocat/Hello-World', 302)).map((j) => j.jobId)).toEqual([
      created[0]!.body.jobId,
    ]);
  });

  it('logs each delivery with its delivery id and job id, and never the signature, secret or body', async () => {
    const r = await deliver(s.url, { payload: labelPayload('labeled', { issue: 401 }) });
    const line = s.lines
      .map((l) => JSON.parse(l))
      .find((l) => l.msg === 'delivery' && l.deliveryId === r.deliveryId);
    expect(line).toMatchObject({
      event: 'issues',
      action: 'labeled',
      outcome: 'created',
      jobId: r.body.jobId,
    });
    const text = s.lines.join('\n');
    expect(text).not.toContain('sha256=');
    expect(text).not.toContain('current-webhook-secret');
    expect(text).not.toContain('accidently');
  });
});
