import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { type GitHubSimulator, startGitHubSimulator } from '../../sim/github/github-simulator.js';
import type { SentDelivery } from '../../src/forges/forge.js';
import { createGitHubClients } from '../../src/forges/github/clients.js';
import { githubForge } from '../../src/forges/github/github-forge.js';
import { hookDeliveries } from '../../src/forges/github/hook-deliveries.js';
import { createMetrics } from '../../src/gateway/metrics.js';
import { deliveryCatchUp, startDeliveryCatchUp } from '../../src/intake/delivery-catch-up.js';
import { missedDeliveries } from '../../src/intake/missed-deliveries.js';
import { createLogger } from '../../src/log.js';
import { SqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import { tempDir } from '../support/job-harness.js';

// Which missed webhook deliveries booty asks GitHub to send again, as a table, and then the look
// itself against the GitHub simulator over HTTP (its delivery API paged through the Link cursor)
// with a real SQLite store.

const attempt = (id: string, n: number, statusCode: number): SentDelivery => ({
  attempt: n,
  id,
  at: Date.UTC(2026, 0, 1, 0, 0, n),
  status:
    statusCode === 0
      ? 'failed to connect to host'
      : statusCode < 300
        ? 'OK'
        : `Invalid HTTP Response: ${statusCode}`,
  statusCode,
  event: 'pull_request_review',
  action: 'submitted',
});

describe('the choosing rule', () => {
  it.each([
    ['a GUID booty recorded is skipped', [attempt('seen', 1, 503)], new Set<string>(), []],
    [
      'a GUID with one success among failures is skipped',
      [attempt('a', 3, 200), attempt('a', 2, 503), attempt('a', 1, 0)],
      new Set(['a']),
      [],
    ],
    ['a 4xx is skipped: it would fail again', [attempt('a', 1, 401)], new Set(['a']), []],
    ['a 4xx among 5xx is skipped', [attempt('a', 2, 502), attempt('a', 1, 400)], new Set(['a']), []],
    [
      'a 5xx is redelivered once, by its newest attempt',
      [attempt('a', 1, 503), attempt('a', 3, 502), attempt('a', 2, 500)],
      new Set(['a']),
      [3],
    ],
    [
      'no response (status_code 0) is redelivered once, the oldest delivery first',
      [attempt('a', 1, 0), attempt('b', 4, 0), attempt('a', 2, 0), attempt('c', 3, 200)],
      new Set(['a', 'b', 'c']),
      [2, 4],
    ],
    [
      'deliveries in the order they first came, each by its newest attempt (labeled before closed)',
      [attempt('closed', 3, 0), attempt('labeled', 5, 502), attempt('labeled', 1, 0)],
      new Set(['closed', 'labeled']),
      [5, 3],
    ],
  ] as [string, SentDelivery[], Set<string>, number[]][])('%s', (_, listed, unknown, chosen) => {
    expect(missedDeliveries(listed, unknown).map((d) => d.attempt)).toEqual(chosen);
  });
});

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

const SECRET = 'catch-up-secret';

/** A webhook endpoint that answers each delivery with the status set now, and records what came. */
async function hookAnswering() {
  const received: { guid: string; body: string }[] = [];
  let status = 202;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ guid: String(req.headers['x-github-delivery']), body });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise<void>((r) => server.close(() => r())));
  const port = (server.address() as { port: number }).port;
  return {
    target: { url: `http://127.0.0.1:${port}/webhooks`, secret: SECRET, retryDelayMs: 1 },
    received,
    answer(s: number) {
      status = s;
    },
  };
}

/** A port nothing listens on: a booty that is down. */
async function deadUrl() {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return { url: `http://127.0.0.1:${port}/webhooks`, secret: SECRET, retryDelayMs: 1 };
}

async function appWorld() {
  const sim = await startGitHubSimulator({ dir: tempDir('booty-catch-up-sim-'), checkReplies: true });
  closers.push(() => sim.close());
  await sim.createRepo('acme', 'widgets');
  const issue = (sim.createIssue('acme', 'widgets', { title: 'Add add()' }) as { number: number }).number;
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  const { appId } = sim.installApp({ publicKey, account: 'acme' });
  const store = new SqliteEventStore(path.join(tempDir(), 'booty.db'));
  closers.push(() => store.close());
  const lines: string[] = [];
  const log = createLogger({
    level: 'info',
    destination: new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  });
  const metrics = createMetrics({ defaultMetrics: false });
  /** One webhook delivery, tried (and retried) against the target set now. */
  const event = async (label: string) => (await sim.labelIssue('acme', 'widgets', issue, label))!;
  const auth = { kind: 'app' as const, appId: String(appId), privateKey };
  return { sim, store, log, lines, metrics, event, auth };
}

const newestTry = (sim: GitHubSimulator, guid: string) =>
  sim
    .deliveries()
    .find((d) => d.id === guid)!
    .tries.at(-1)!.id;

describe('a look at missed deliveries, against the simulator', () => {
  it('redelivers each unrecorded delivery that failed as a down booty fails, once, across pages; the next look finds nothing', async () => {
    const w = await appWorld();
    const hook = await hookAnswering();
    const down = await deadUrl();

    w.sim.setWebhook(hook.target);
    hook.answer(503);
    const recorded = await w.event('recorded');
    await w.store.recordDeliveries([
      { deliveryId: recorded.id, event: 'issues', action: 'labeled', outcome: 'ignored', jobId: null },
    ]);
    const laterOk = await w.event('later-ok');
    hook.answer(202);
    await w.sim.redeliver(laterOk.id);
    hook.answer(401);
    const refused = await w.event('bad-signature');
    hook.answer(502);
    const failing = await w.event('failing');
    // Forty deliveries to a booty that is down, three tries each: the listing takes two pages.
    w.sim.setWebhook(down);
    const missed = [];
    for (let i = 0; i < 40; i++) missed.push(await w.event(`down-${i}`));
    await w.sim.settled();
    expect(missed[0]!.tries.map((t) => [t.statusCode, t.status])).toEqual([
      [0, 'failed to connect to host'],
      [0, 'failed to connect to host'],
      [0, 'failed to connect to host'],
    ]);
    const wanted = [failing, ...missed].map((d) => [d.id, newestTry(w.sim, d.id)]);
    const payloads = new Map([failing, ...missed].map((d) => [d.id, d.payload]));

    w.sim.setWebhook(hook.target);
    hook.answer(202);
    hook.received.length = 0;
    const catchUp = deliveryCatchUp({
      store: w.store,
      metrics: w.metrics,
      log: w.log,
      history: hookDeliveries(createGitHubClients({ apiUrl: w.sim.url, auth: w.auth, paced: false })),
    });
    expect(await catchUp.look(0)).toEqual({ looked: true, listed: 133, redelivered: 41 });
    await w.sim.settled();

    const requests = w.sim.requests();
    expect(
      requests.filter((r) => r.operation === 'apps/list-webhook-deliveries').map((r) => r.status),
    ).toEqual([200, 200]);
    const asked = requests
      .filter((r) => r.operation === 'apps/redeliver-webhook-delivery')
      .map((r) => [r.status, Number(r.path.split('/')[4])]);
    expect(asked.map(([, id]) => id).sort()).toEqual(wanted.map(([, id]) => id).sort());
    expect(new Set(asked.map(([status]) => status))).toEqual(new Set([202]));
    // Each came again once, with its GUID and its payload as first sent.
    expect(hook.received.map((r) => r.guid).sort()).toEqual(wanted.map(([guid]) => guid).sort());
    for (const r of hook.received) expect(r.body).toBe(payloads.get(r.guid));
    expect(hook.received.map((r) => r.guid)).not.toContain(recorded.id);
    expect(hook.received.map((r) => r.guid)).not.toContain(refused.id);
    expect(
      w.sim
        .deliveries()
        .find((d) => d.id === failing.id)!
        .tries.at(-1),
    ).toMatchObject({
      redelivery: true,
      statusCode: 202,
      status: 'OK',
    });

    // Each redelivery now succeeded, so the next look asks for nothing.
    expect(await catchUp.look(0)).toMatchObject({ looked: true, redelivered: 0 });
    const metrics = await w.metrics.registry.metrics();
    expect(metrics).toContain('booty_redeliveries_requested_total 41');
    expect(metrics).toContain('booty_delivery_looks_total{result="ok"} 2');
    expect(w.sim.problems()).toEqual([]);
  });

  it('a delivery booty fails each time it comes (a 500, not an outage) is asked for three times, then no more', async () => {
    const w = await appWorld();
    const hook = await hookAnswering();
    w.sim.setWebhook(hook.target);
    hook.answer(500);
    const broken = await w.event('broken');
    const catchUp = deliveryCatchUp({
      store: w.store,
      metrics: w.metrics,
      log: w.log,
      history: hookDeliveries(createGitHubClients({ apiUrl: w.sim.url, auth: w.auth, paced: false })),
    });
    const redelivered = [];
    for (let look = 0; look < 5; look++) {
      redelivered.push(((await catchUp.look(0)) as { redelivered: number }).redelivered);
      await w.sim.settled();
    }
    expect(redelivered).toEqual([1, 1, 1, 0, 0]);
    const asked = w.sim.requests().filter((r) => r.operation === 'apps/redeliver-webhook-delivery');
    expect(asked).toHaveLength(3);
    expect(
      w.sim
        .deliveries()
        .find((d) => d.id === broken.id)!
        .tries.every((t) => t.statusCode === 500),
    ).toBe(true);
    expect(w.lines.filter((l) => l.includes('the 3rd time, and the last'))).toHaveLength(1);
  });

  it('a delivery GitHub will not send again is skipped; a rate limit ends the look and the next covers its span again', async () => {
    const w = await appWorld();
    const hook = await hookAnswering();
    w.sim.setWebhook(await deadUrl());
    const [first, second] = [await w.event('first'), await w.event('second')];
    w.sim.setWebhook(hook.target);
    hook.answer(202);
    const catchUp = deliveryCatchUp({
      store: w.store,
      metrics: w.metrics,
      log: w.log,
      history: hookDeliveries(createGitHubClients({ apiUrl: w.sim.url, auth: w.auth, paced: false })),
    });
    // The oldest is asked first, and GitHub refuses that one alone: the other is still asked.
    w.sim.fault('apps/redeliver-webhook-delivery', {
      kind: 'status',
      status: 422,
      message: 'Validation Failed',
    });
    expect(await catchUp.look(0)).toMatchObject({ looked: true, redelivered: 1 });
    await w.sim.settled();
    expect(hook.received.map((r) => r.guid)).toEqual([second.id]);
    await w.store.recordDeliveries([
      { deliveryId: second.id, event: 'issues', action: 'labeled', outcome: 'ignored', jobId: null },
    ]);
    const { lastLook } = (await w.store.takeDeliveryLook(Date.now(), 0))!;

    // Rate limited: the look fails, and the mark stays where it was.
    w.sim.fault('apps/redeliver-webhook-delivery', { kind: 'secondary-rate-limit' });
    expect(await catchUp.look(0)).toMatchObject({
      looked: true,
      error: expect.stringMatching(/^GitHub rate-limited the look at missed webhook deliveries \(403: /),
    });
    expect(await w.store.takeDeliveryLook(Date.now(), 0)).toEqual({ lastLook });
    // The next look asks for the first again, and it comes.
    expect(await catchUp.look(0)).toMatchObject({ looked: true, redelivered: 1 });
    await w.sim.settled();
    expect(hook.received.map((r) => r.guid)).toEqual([second.id, first.id]);
  });

  it('a look GitHub refuses is logged once with what to do, and tried again at the next look', async () => {
    const w = await appWorld();
    const catchUp = deliveryCatchUp({
      store: w.store,
      metrics: w.metrics,
      log: w.log,
      // An App GitHub does not know: its JWT is refused.
      history: hookDeliveries(
        createGitHubClients({ apiUrl: w.sim.url, auth: { ...w.auth, appId: '999999' }, paced: false }),
      ),
    });
    const first = await catchUp.look(0);
    const second = await catchUp.look(0);
    expect(first).toEqual({
      looked: true,
      error:
        "GitHub refused the App's JWT listing its webhook deliveries (401): check GITHUB_APP_ID and the private key; booty tries again at the next look",
    });
    expect(second).toEqual(first);
    expect(w.lines.filter((l) => l.includes('GitHub refused the App'))).toHaveLength(1);
    expect(await w.metrics.registry.metrics()).toContain('booty_delivery_looks_total{result="failed"} 2');
    // Nothing went through, so the next look still goes back as far.
    expect(await w.store.takeDeliveryLook(Date.now(), 0)).toEqual({ lastLook: null });
  });

  it('without a GitHub App, says once that missed deliveries cannot be caught up, and asks GitHub nothing', async () => {
    const w = await appWorld();
    const catchUp = startDeliveryCatchUp({
      minutes: 10,
      history: githubForge({
        clients: createGitHubClients({
          apiUrl: w.sim.url,
          auth: { kind: 'token', token: 'ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' },
          paced: false,
        }),
      }).history,
      store: w.store,
      metrics: w.metrics,
      log: w.log,
    });
    expect(catchUp).toBeNull();
    expect(w.lines.map((l) => JSON.parse(l).msg)).toEqual([
      'missed webhook deliveries cannot be caught up without a GitHub App (GitHub lists deliveries only to an App): a delivery that fails while booty is down is lost unless redelivered from the webhook settings',
    ]);
    expect(w.sim.requests()).toEqual([]);
  });
});
