import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../support/job-harness.js';
import { serveProcess } from '../support/serve-process.js';
import { sleep } from '../support/until.js';
import { deliver, SECRET } from './gateway-harness.js';

// A thousand clients at once that hold a connection without finishing a request: silent, trickling
// their headers, trickling their body, or idle after a kept-alive reply. `booty serve` (the real
// CLI, in its own process, on a machine as loaded as it happens to be) must close every one
// within 10 s of its connecting, and answer everyone else meanwhile. The bound is the README's;
// booty's own timeouts aim at about 6 s, so a busy machine has 4 s to spare.

const CLIENTS = 1_000;
const BOUND_MS = 10_000;
/** The client gives up on a connection the server kept this long: it was not cut. */
const GIVE_UP_MS = 15_000;

type Kind = 'silent' | 'headers' | 'body' | 'idle';
const kinds: Kind[] = ['silent', 'headers', 'body', 'idle'];

/** What each kind sends once connected, and what it trickles each second after. */
const opening: Record<Kind, string> = {
  silent: '',
  headers: 'POST /webhooks HTTP/1.1\r\nHost: booty\r\n',
  body: 'POST /webhooks HTTP/1.1\r\nHost: booty\r\nContent-Type: application/json\r\nContent-Length: 4096\r\n\r\n{',
  idle: 'GET /healthz HTTP/1.1\r\nHost: booty\r\n\r\n',
};
const trickle: Record<Kind, string | null> = {
  silent: null,
  headers: 'X-Slow: 1\r\n',
  body: ' ',
  idle: null,
};

/** One slow client: how long after connecting its connection was closed, and by whom. */
function slowClient(port: number, kind: Kind): Promise<{ kind: Kind; ms: number; byServer: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let connected = Date.now();
    let byServer = true;
    let timer: NodeJS.Timeout | undefined;
    const giveUp = setTimeout(() => {
      byServer = false;
      socket.destroy();
    }, GIVE_UP_MS);
    socket.on('error', () => {});
    socket.on('data', () => {});
    socket.once('connect', () => {
      connected = Date.now();
      if (opening[kind]) socket.write(opening[kind]);
      const more = trickle[kind];
      if (more) timer = setInterval(() => socket.write(more), 1_000);
    });
    socket.once('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ kind, ms: Date.now() - connected, byServer });
    });
  });
}

const procs: ReturnType<typeof serveProcess>[] = [];
afterEach(async () => {
  for (const p of procs.splice(0)) {
    p.proc.kill('SIGKILL');
    await p.exited;
  }
});

describe('slow clients', () => {
  it('cuts a thousand at once within 10 s each, and answers other requests meanwhile', async () => {
    const dir = tempDir('booty-slow-');
    const s = serveProcess(
      {
        PATH: process.env.PATH ?? '',
        HOST: '127.0.0.1',
        PORT: '0',
        BOOTY_DB: path.join(dir, 'booty.db'),
        BOOTY_WORKDIR: path.join(dir, 'work'),
        BOOTY_SANDBOX: 'off',
        GITHUB_WEBHOOK_SECRET: SECRET,
        GITHUB_TOKEN: `ghp_${'a'.repeat(36)}`,
        ANTHROPIC_API_KEY: 'sk-ant-test-key',
        LOG_LEVEL: 'warn',
      },
      { only: true },
    );
    procs.push(s);
    const url = await s.url;
    const port = Number(new URL(url).port);

    const clients = Promise.all(Array.from({ length: CLIENTS }, (_, i) => slowClient(port, kinds[i % 4]!)));
    // Meanwhile a probe and a delivery every half second, each on a connection of its own.
    let done = false;
    const answers: string[] = [];
    const others = (async () => {
      while (!done) {
        const health = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) }).then(
          (r) => r.status,
          () => 0,
        );
        const ping = await deliver(url, {
          event: 'ping',
          payload: { zen: 'Keep it logically awesome.' },
        }).then(
          (r) => r.status,
          () => 0,
        );
        answers.push(`healthz ${health}`, `ping ${ping}`);
        await sleep(500);
      }
    })();
    const cut = await clients;
    done = true;
    await others;

    const summary = kinds.map((kind) => {
      const mine = cut.filter((c) => c.kind === kind);
      return {
        kind,
        clients: mine.length,
        notCut: mine.filter((c) => !c.byServer).length,
        over10s: mine.filter((c) => c.ms >= BOUND_MS).length,
      };
    });
    expect(summary).toEqual(kinds.map((kind) => ({ kind, clients: CLIENTS / 4, notCut: 0, over10s: 0 })));
    expect(answers.length).toBeGreaterThanOrEqual(4);
    // Every probe answered 200, every ping delivery taken (202), none refused or timed out (0).
    expect(answers.filter((a) => a !== 'healthz 200' && a !== 'ping 202')).toEqual([]);
  }, 60_000);
});
