import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startWebhookProxy } from '../../src/intake/webhook-proxy.js';
import { createLogger } from '../../src/log.js';
import { e2eWorld, OWNER, REPO, SECRET } from '../e2e/e2e-world.js';
import { serveProcess } from '../support/serve-process.js';
import { type SmeeChannelServer, startSmeeChannel } from '../support/smee-channel.js';
import { until } from '../support/until.js';

// WEBHOOK_PROXY_URL: `booty serve` behind NAT takes its webhooks through a smee channel. Here the
// local GitHub delivers to a stand-in of smee.io, which streams each delivery to smee-client inside
// booty, which posts it to booty's own /webhooks, where the signature is checked as for any other.

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!().catch(() => {});
});

const metric = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('booty serve with WEBHOOK_PROXY_URL', () => {
  let smee: SmeeChannelServer;

  it('takes a signed delivery through the channel, starts the job, and refuses a forged one', async () => {
    smee = await startSmeeChannel();
    closers.push(() => smee.close());
    const world = await e2eWorld('pass');
    closers.push(() => world.close());
    const channel = smee.channel();
    const s = serveProcess(
      world.env({ WEBHOOK_PROXY_URL: channel, BOOTY_SANDBOX: 'off', LOG_LEVEL: 'warn' }),
    );
    closers.push(async () => {
      s.proc.kill('SIGTERM');
      await s.exited;
    });
    const url = await s.url;
    await until('booty to say where webhooks come from', () => s.out().includes('webhooks also arrive'));
    expect(s.out()).toContain(`webhooks also arrive through ${channel} (WEBHOOK_PROXY_URL)`);
    expect(smee.listeners(channel)).toBe(1);

    // GitHub knows only the channel; booty's own address is never given to it.
    world.github.setWebhook({ url: channel, secret: SECRET, events: ['issues'] });
    const delivery = await world.label();
    expect(delivery.status).toBe(200); // the channel took it
    await until('the job to be created', async () => {
      const { jobs } = (await (await fetch(`${url}/jobs`)).json()) as { jobs: unknown[] };
      return jobs.length === 1;
    });
    const { jobs } = (await (await fetch(`${url}/jobs`)).json()) as {
      jobs: { repo: string; issue: number }[];
    };
    expect(jobs.map((j) => `${j.repo}#${j.issue}`)).toEqual([`${OWNER}/${REPO}#${world.issue}`]);

    // A delivery signed with another secret comes through the same way and is refused.
    world.github.setWebhook({ url: channel, secret: 'not-the-secret', events: ['issues'] });
    await world.github.labelIssue(OWNER, REPO, world.issue, 'other-label');
    await until('the forged delivery to be refused', async () => {
      const text = await (await fetch(`${url}/metrics`)).text();
      return metric(text, 'booty_webhook_deliveries_total{outcome="BOOTY_E_WEBHOOK_SIGNATURE"}') === 1;
    });
    const text = await (await fetch(`${url}/metrics`)).text();
    expect(metric(text, 'booty_webhook_deliveries_total{outcome="created"}')).toBe(1);
    expect(smee.posted(channel).map((m) => m['x-github-event'])).toEqual(['issues', 'issues']);
  });

  it('does not start when the channel cannot be reached, saying so in one line', async () => {
    smee = await startSmeeChannel();
    const dead = smee.url;
    await smee.close();
    const world = await e2eWorld('pass');
    closers.push(() => world.close());
    const s = serveProcess(
      world.env({ WEBHOOK_PROXY_URL: `${dead}/gone`, BOOTY_SANDBOX: 'off', LOG_LEVEL: 'silent' }),
    );
    expect(await s.exited).toBe(1);
    const lines = s.err().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^booty serve: environment variable WEBHOOK_PROXY_URL could not be reached \(.+\): check the channel URL \(https:\/\/smee\.io\/new makes one\), or unset it to take webhooks at \/webhooks directly \(BOOTY_E_ENV_INVALID\)$/,
    );
  });
});

describe('startWebhookProxy', () => {
  it('forwards what the channel streams, opens a new stream after an outage, and stops on close()', async () => {
    const smee = await startSmeeChannel();
    closers.push(() => smee.close());
    const received: { event: string | undefined; body: string }[] = [];
    const target = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({
          event: req.headers['x-github-event'] as string,
          body: Buffer.concat(chunks).toString(),
        });
        res.writeHead(202).end();
      });
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => target.close(r)));
    const channel = smee.channel();
    const post = (n: number) =>
      fetch(channel, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-github-event': 'ping' },
        body: JSON.stringify({ zen: `n${n}` }),
      });
    const proxy = await startWebhookProxy({
      source: channel,
      target: `http://127.0.0.1:${(target.address() as AddressInfo).port}/webhooks`,
      log: createLogger({ level: 'silent' }),
      reconnectMs: 50,
    });
    expect(smee.listeners(channel)).toBe(1);
    await post(1);
    await until('the first delivery', () => received.length === 1, 5_000);

    // The stream ends and the channel answers the reconnection with 503: the stream is closed
    // for good, so the proxy opens a new one.
    smee.drop(channel, { refuse: 1 });
    await until('a new stream', () => smee.listeners(channel) === 1, 5_000);
    await post(2);
    await until('the second delivery', () => received.length === 2, 5_000);
    expect(received).toEqual([
      { event: 'ping', body: '{"zen":"n1"}' },
      { event: 'ping', body: '{"zen":"n2"}' },
    ]);

    await proxy.close();
    await until('the stream to close', () => smee.listeners(channel) === 0, 5_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(smee.listeners(channel)).toBe(0);
  });
});
