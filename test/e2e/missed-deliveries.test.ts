import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Booty } from '../../src/main/compose.js';
import type { RunningServer } from '../../src/main/serve.js';
import { personOn } from '../support/github-person.js';
import { followUpResponder } from './conversation-world.js';
import { e2eWorld, OWNER, REPO } from './e2e-world.js';

// A review submitted while booty is down reaches nobody, and GitHub never sends it again on its
// own. booty as a GitHub App asks for it at its next start: the parked job wakes and runs its round
// from the redelivered review, once, however often booty looks again. With a token, booty cannot.

type World = Awaited<ReturnType<typeof e2eWorld>>;
let world: World | null = null;
afterEach(async () => {
  await world?.close();
  world = null;
});

type Server = Booty & { server: RunningServer };

/** Until nothing moves: every webhook tried, every job run, every comment written. */
async function quiet(w: World, booty: Server, jobId: string) {
  for (;;) {
    const before = [w.github.requests().length, (await booty.store.readStream(jobId)).length];
    await w.github.settled();
    await booty.server.supervisor.onIdle();
    await booty.runtime!.idle();
    const after = [w.github.requests().length, (await booty.store.readStream(jobId)).length];
    if (after[0] === before[0] && after[1] === before[1]) return;
  }
}

/** booty started, the issue labeled, and the job waiting with its promoted PR. */
async function promoted(w: World, env: Record<string, string>) {
  const booty = await w.startInProcess(env);
  await w.label();
  const [job] = await booty.store.listJobs();
  expect((await booty.server.supervisor.whenFinished(job!.jobId)).value).toBe('promoted');
  await quiet(w, booty, job!.jobId);
  return { booty, jobId: job!.jobId, pr: w.pulls()[0]! };
}

/** A writer's review asking for one more test, submitted while booty is down. */
async function reviewWhileDown(w: World, pr: number) {
  w.github.setRole(OWNER, REPO, 'reviewer', 'write');
  const before = w.github.deliveries().length;
  await personOn(w.github, 'reviewer').rest.pulls.createReview({
    owner: OWNER,
    repo: REPO,
    pull_number: pr,
    event: 'REQUEST_CHANGES',
    body: 'Days are missing: "2d" must parse too.',
  });
  await w.github.settled();
  const review = w.github
    .deliveries()
    .slice(before)
    .find((d) => d.event === 'pull_request_review')!;
  expect(review.tries.map((t) => t.statusCode)).toEqual([0, 0, 0]);
  return review;
}

const listings = (w: World) =>
  w.github.requests().filter((r) => r.operation === 'apps/list-webhook-deliveries');

describe('a webhook missed while booty was down', () => {
  it('as a GitHub App: is redelivered at the next start, and the parked job runs its round from it once', async () => {
    world = await e2eWorld('pass');
    const w = world;
    w.anthropic.setResponder(followUpResponder());
    const { publicKey, privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    });
    const { appId } = w.github.installApp({ publicKey, account: OWNER });
    const appEnv = { GITHUB_TOKEN: '', GITHUB_APP_ID: String(appId), GITHUB_PRIVATE_KEY: privateKey };

    const { booty, jobId, pr } = await promoted(w, appEnv);
    expect(await booty.server.catchUp!.first).toMatchObject({ looked: true, redelivered: 0 });
    const port = booty.server.port;
    await booty.close();

    const review = await reviewWhileDown(w, pr.number);

    // The same address as before, as a real deployment's webhook URL stays.
    const again = await w.startInProcess({ ...appEnv, PORT: String(port) });
    expect(await again.server.catchUp!.first).toMatchObject({ looked: true, redelivered: 1 });
    await quiet(w, again, jobId);

    const tries = w.github.deliveries().find((d) => d.id === review.id)!.tries;
    expect(tries.map((t) => [t.redelivery, t.statusCode])).toEqual([
      [false, 0],
      [false, 0],
      [false, 0],
      [true, 202],
    ]);
    const job = await again.server.supervisor.whenFinished(jobId);
    expect(job.context.conversation.rounds).toMatchObject([
      { n: 1, result: 'pushed', triggers: [{ kind: 'feedback', place: 'review', author: 'reviewer' }] },
    ]);
    const asked = w.anthropic
      .messages()
      .filter((m) => m.toolName === 'submit_changes' && m.raw.includes('Days are missing'));
    expect(asked).toHaveLength(1);

    // The next look finds the review recorded: nothing is asked again, and no second round runs.
    expect(await again.server.catchUp!.look(0)).toMatchObject({ looked: true, redelivered: 0 });
    await quiet(w, again, jobId);
    expect(w.github.deliveries().find((d) => d.id === review.id)!.tries).toHaveLength(4);
    expect((await again.server.supervisor.whenFinished(jobId)).context.conversation.rounds).toHaveLength(1);
    const metrics = await (await fetch(`${again.server.url}/metrics`)).text();
    expect(metrics).toContain('booty_redeliveries_requested_total 1');
    expect(
      w.github
        .requests()
        .filter((r) => r.operation === 'apps/redeliver-webhook-delivery')
        .map((r) => [r.status, r.path]),
    ).toEqual([[202, `/app/hook/deliveries/${tries[2]!.id}/attempts`]]);
  });

  it('with a token: nothing is asked of GitHub, and the review stays missed', async () => {
    world = await e2eWorld('pass');
    const w = world;
    w.anthropic.setResponder(followUpResponder());
    const { booty, jobId, pr } = await promoted(w, {});
    expect(booty.server.catchUp).toBeNull();
    const port = booty.server.port;
    await booty.close();

    await reviewWhileDown(w, pr.number);
    const again = await w.startInProcess({ PORT: String(port) });
    await quiet(w, again, jobId);

    expect(again.server.catchUp).toBeNull();
    expect(listings(w)).toEqual([]);
    expect((await again.server.supervisor.whenFinished(jobId)).context.conversation.rounds).toEqual([]);
  });
});
