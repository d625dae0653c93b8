import { randomBytes } from 'node:crypto';
import http, { type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local stand-in for smee.io, speaking its wire format: `/new` redirects to a fresh channel; a
// POST to a channel is parsed and sent to every listener of its event stream as one message,
// `{ ...headers, body, query, timestamp }`, which smee-client turns back into a POST. GitHub's
// JSON deliveries are parsed and re-serialised on the way, exactly as smee.io does.

export interface SmeeChannelServer {
  url: string;
  /** A new channel's URL, as `HEAD /new` would redirect to. */
  channel(): string;
  /** The event streams open on a channel now. */
  listeners(channelUrl: string): number;
  /** Messages posted to each channel, in order. */
  posted(channelUrl: string): Record<string, unknown>[];
  /** Ends the channel's streams, and answers the next `refuse` connections with 503 (an outage). */
  drop(channelUrl: string, options?: { refuse?: number }): void;
  close(): Promise<void>;
}

export async function startSmeeChannel(): Promise<SmeeChannelServer> {
  const streams = new Map<string, Set<ServerResponse>>();
  const posts = new Map<string, Record<string, unknown>[]>();
  let refusing = 0;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const channel = url.pathname.slice(1);
    if (url.pathname === '/new') {
      res.writeHead(307, { location: `${base}/${randomBytes(8).toString('hex')}` }).end();
      return;
    }
    if (req.method === 'GET' && /^[\w-]+$/.test(channel)) {
      if (refusing > 0) {
        refusing--;
        res.writeHead(503).end('smee is down');
        return;
      }
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      // A short reconnection time, so a dropped stream is back within the test's patience.
      res.write('retry: 100\nevent: ready\ndata: {}\n\n');
      const set = streams.get(channel) ?? new Set();
      set.add(res);
      streams.set(channel, set);
      req.on('close', () => set.delete(res));
      return;
    }
    if (req.method === 'POST' && /^[\w-]+$/.test(channel)) {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const type = req.headers['content-type'] ?? '';
        const body = type.startsWith('application/x-www-form-urlencoded')
          ? Object.fromEntries(new URLSearchParams(text))
          : JSON.parse(text || '{}');
        const message = {
          ...req.headers,
          body,
          query: Object.fromEntries(url.searchParams),
          timestamp: Date.now(),
        };
        posts.set(channel, [...(posts.get(channel) ?? []), message]);
        for (const stream of streams.get(channel) ?? []) stream.write(`data: ${JSON.stringify(message)}\n\n`);
        res.writeHead(200).end();
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const name = (channelUrl: string) => new URL(channelUrl).pathname.slice(1);
  return {
    url: base,
    channel: () => `${base}/${randomBytes(8).toString('hex')}`,
    listeners: (channelUrl) => streams.get(name(channelUrl))?.size ?? 0,
    posted: (channelUrl) => posts.get(name(channelUrl)) ?? [],
    drop(channelUrl, options = {}) {
      refusing = options.refuse ?? 0;
      const open = streams.get(name(channelUrl)) ?? new Set();
      for (const stream of open) stream.destroy();
      open.clear();
    },
    async close() {
      for (const set of streams.values()) for (const s of set) s.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
