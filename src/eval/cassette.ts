import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { BootyError } from '../errors.js';

// The model endpoint booty talks to in `--model`, `--record` and `--replay` runs: a local server
// on booty's ANTHROPIC_BASE_URL. With the real API it passes every request on, with the key, and
// with --record writes each exchange to the cassette, one JSON line each, the request byte for
// byte. With --replay it answers from the cassette alone: a request is answered only if the
// cassette holds one with the same method, path and body, to the byte, and never reaches a network.
// booty's requests are a pure function of the job, so a replayed run sends the recorded bytes.

export const CASSETTE_FILE = 'cassette.jsonl';

const Exchange = z.object({
  method: z.string(),
  path: z.string(),
  /** The request body exactly as booty sent it. */
  body: z.string(),
  status: z.number().int(),
  headers: z.record(z.string(), z.string()),
  response: z.string(),
});
type Exchange = z.infer<typeof Exchange>;

/** Response headers the SDK reads: kept in the cassette and sent on. */
const KEPT = ['content-type', 'request-id', 'retry-after', 'retry-after-ms', 'x-should-retry'];
/** Request headers the API needs besides the key. */
const FORWARDED = ['content-type', 'anthropic-version', 'anthropic-beta', 'accept'];

export interface Miss {
  n: number;
  method: string;
  path: string;
  reason: string;
}

export interface ModelEndpoint {
  url: string;
  /** Exchanges answered so far. */
  exchanges(): number;
  /** Requests the cassette could not answer (replay only). */
  misses(): Miss[];
  close(): Promise<void>;
}

const keyOf = (e: Pick<Exchange, 'method' | 'path' | 'body'>) => `${e.method} ${e.path}\n${e.body}`;

function serve(handle: (req: http.IncomingMessage, body: string, res: http.ServerResponse) => Promise<void>) {
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req, Buffer.concat(chunks).toString('utf8'), res).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
        res.end(errorBody('api_error', `booty eval's model endpoint failed: ${String(err)}`));
      });
    });
  });
}

const errorBody = (type: string, message: string) =>
  JSON.stringify({ type: 'error', error: { type, message } });

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const closer = (server: http.Server) => () =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/**
 * The real API behind a local endpoint, with the key added here (booty's own key is a stand-in);
 * every exchange written to `cassette` when given.
 */
export async function startPassThrough(options: {
  upstream: string;
  apiKey: string;
  cassette?: string;
}): Promise<ModelEndpoint> {
  let file: string | null = null;
  if (options.cassette) {
    fs.mkdirSync(options.cassette, { recursive: true });
    file = path.join(options.cassette, CASSETTE_FILE);
    if (fs.existsSync(file) && fs.statSync(file).size > 0)
      throw new BootyError('BOOTY_E_EVAL_CASSETTE', {
        dir: options.cassette,
        reason: 'already holds a recording; give --record a new directory',
      });
    fs.writeFileSync(file, '');
  }
  const base = options.upstream.replace(/\/+$/, '');
  let count = 0;
  const server = serve(async (req, body, res) => {
    const headers: Record<string, string> = { 'x-api-key': options.apiKey };
    for (const h of FORWARDED) {
      const v = req.headers[h];
      if (typeof v === 'string') headers[h] = v;
    }
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const reply = await fetch(`${base}${url}`, {
      method,
      headers,
      body: method === 'GET' ? undefined : body,
    });
    const response = await reply.text();
    const kept: Record<string, string> = {};
    for (const h of KEPT) {
      const v = reply.headers.get(h);
      if (v !== null) kept[h] = v;
    }
    count++;
    if (file) {
      const exchange: Exchange = { method, path: url, body, status: reply.status, headers: kept, response };
      fs.appendFileSync(file, `${JSON.stringify(exchange)}\n`);
    }
    res.writeHead(reply.status, kept);
    res.end(response);
  });
  return { url: await listen(server), exchanges: () => count, misses: () => [], close: closer(server) };
}

/** The exchanges of a recorded cassette, by request. */
export function readCassette(dir: string): Map<string, Exchange[]> {
  const file = path.join(dir, CASSETTE_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new BootyError('BOOTY_E_EVAL_CASSETTE', { dir, reason: `has no ${CASSETTE_FILE}` });
  }
  const byKey = new Map<string, Exchange[]>();
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let exchange: Exchange;
    try {
      exchange = Exchange.parse(JSON.parse(line));
    } catch {
      throw new BootyError('BOOTY_E_EVAL_CASSETTE', {
        dir,
        reason: `has an unreadable line ${i + 1} in ${CASSETTE_FILE}`,
      });
    }
    const key = keyOf(exchange);
    byKey.set(key, [...(byKey.get(key) ?? []), exchange]);
  });
  return byKey;
}

/** Answers only from the cassette; anything else is a miss, answered 400 and reported. */
export async function startReplay(dir: string): Promise<ModelEndpoint> {
  const byKey = readCassette(dir);
  const used = new Map<string, number>();
  const misses: Miss[] = [];
  let n = 0;
  let count = 0;
  const server = serve(async (req, body, res) => {
    n++;
    const request = { method: req.method ?? 'GET', path: req.url ?? '/', body };
    const key = keyOf(request);
    const recorded = byKey.get(key) ?? [];
    const turn = used.get(key) ?? 0;
    const exchange = recorded[turn];
    if (!exchange) {
      const reason = recorded.length
        ? `it was recorded ${recorded.length} time(s) and is asked again`
        : nearest(byKey, request);
      misses.push({ n, method: request.method, path: request.path, reason });
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(errorBody('invalid_request_error', `booty eval --replay: not in the cassette: ${reason}`));
      return;
    }
    used.set(key, turn + 1);
    count++;
    res.writeHead(exchange.status, exchange.headers);
    res.end(exchange.response);
  });
  return {
    url: await listen(server),
    exchanges: () => count,
    misses: () => [...misses],
    close: closer(server),
  };
}

/** Where the request parts from the recorded one it is most like (same method and path). */
function nearest(
  byKey: Map<string, Exchange[]>,
  request: Pick<Exchange, 'method' | 'path' | 'body'>,
): string {
  let best: { at: number; body: string } | null = null;
  for (const [first] of byKey.values()) {
    if (!first || first.method !== request.method || first.path !== request.path) continue;
    let at = 0;
    const max = Math.min(first.body.length, request.body.length);
    while (at < max && first.body[at] === request.body[at]) at++;
    if (!best || at > best.at) best = { at, body: first.body };
  }
  if (!best) return `no request to ${request.method} ${request.path} was recorded`;
  const show = (s: string) => JSON.stringify(s.slice(Math.max(0, best!.at - 30), best!.at + 50));
  return `the nearest recorded request differs from character ${best.at} on: recorded ${show(best.body)}, sent ${show(request.body)}`;
}
