import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  answerToolOf,
  blocksOf,
  checkRequest,
  errorBody,
  inputTokensOf,
  type Json,
  messageBody,
  newId,
  PromptCache,
  tokensOf,
  WireError,
} from './anthropic-wire.js';

// A local Anthropic Messages API for `booty demo` and the tests. It speaks the real wire format
// over HTTP (POST /v1/messages, POST /v1/messages/count_tokens), answers scripted turns, records
// every request, simulates prompt caching, and fails on cue (429, 529, 500, unreadable JSON,
// schema-breaking answers) with the API's own error shapes and headers.

/** One scripted reply to POST /v1/messages. */
export type Turn =
  /** A structured answer: sent as the input of the forced tool (or as JSON text without tools). */
  | { answer: unknown; stopReason?: string; outputTokens?: number; delayMs?: number }
  /** Plain text and no tool call: what a model that ignores the schema says. */
  | { text: string; delayMs?: number }
  /** Content blocks exactly as given. */
  | { content: Json[]; stopReason: string; delayMs?: number }
  /** An API error with its real status, type and message; 429s carry retry-after. */
  | { error: number; type?: string; message?: string; retryAfterMs?: number; delayMs?: number }
  /** A 200 whose body is not JSON. */
  | { invalidJson: true; delayMs?: number };

export const faults = {
  overloaded: (retryAfterMs?: number): Turn => ({ error: 529, retryAfterMs }),
  rateLimited: (retryAfterMs = 1_000): Turn => ({ error: 429, retryAfterMs }),
  serverError: (retryAfterMs?: number): Turn => ({ error: 500, retryAfterMs }),
  invalidJson: (): Turn => ({ invalidJson: true }),
};

export interface SimRequest {
  /** 1-based, over all requests. */
  n: number;
  method: string;
  path: string;
  /** Lower-cased; credentials redacted. */
  headers: Record<string, string>;
  body: Json;
  raw: string;
  /** The tool a structured answer goes to, for Messages requests. */
  toolName: string | null;
}

export interface RecordedRequest extends SimRequest {
  status: number;
  response: Json;
}

export type Responder = (request: SimRequest) => Turn | undefined | Promise<Turn | undefined>;

export interface AnthropicSimulatorOptions {
  port?: number;
  host?: string;
  /** Turns answered in order before the responder is asked. */
  script?: Turn[];
  responder?: Responder;
  /** When set, any other x-api-key gets a 401. */
  apiKey?: string;
  /** false: count_tokens answers 404, as an API without the endpoint would. */
  countTokens?: boolean;
  /** The smallest prefix the cache stores (the API's minimum is 1024 for Sonnet). */
  minCacheTokens?: number;
  /** Requests above this many input tokens get "prompt is too long". */
  contextWindow?: number;
  /**
   * How long every answer to POST /v1/messages takes, as a real model takes seconds to write one;
   * a turn's own delayMs adds to it. 0 unless set.
   */
  latencyMs?: number;
}

export interface AnthropicSimulator {
  url: string;
  requests: RecordedRequest[];
  /** Only the POST /v1/messages requests. */
  messages(): RecordedRequest[];
  enqueue(...turns: Turn[]): void;
  setResponder(responder: Responder | undefined): void;
  /** Scripted turns not yet answered. */
  pending(): number;
  close(): Promise<void>;
}

/** A responder answering from one queue of turns per tool name, e.g. for a demo's script. */
export function scriptByTool(turns: Record<string, Turn[]>): Responder {
  const queues = new Map(Object.entries(turns).map(([k, v]) => [k, [...v]]));
  return (request) => (request.toolName ? queues.get(request.toolName)?.shift() : undefined);
}

export async function startAnthropicSimulator(
  options: AnthropicSimulatorOptions = {},
): Promise<AnthropicSimulator> {
  const queue: Turn[] = [...(options.script ?? [])];
  let responder = options.responder;
  const requests: RecordedRequest[] = [];
  const cache = new PromptCache(options.minCacheTokens ?? 1024);
  const contextWindow = options.contextWindow ?? 200_000;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req, Buffer.concat(chunks).toString('utf8'), res).catch((err) => {
        send(res, 500, errorBody(500, `simulator failure: ${String(err)}`));
      });
    });
  });

  async function handle(req: http.IncomingMessage, raw: string, res: http.ServerResponse) {
    const path = (req.url ?? '/').split('?')[0]!;
    const headers = redact(req.headers);
    let body: Json = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {}
    const isMessages = path === '/v1/messages';
    const request: SimRequest = {
      n: requests.length + 1,
      method: req.method ?? 'GET',
      path,
      headers,
      body,
      raw,
      toolName: isMessages && body ? answerToolOf(body) : null,
    };
    const record = (status: number, response: Json) => requests.push({ ...request, status, response });
    const fail = (status: number, message?: string, extra: Record<string, string> = {}) => {
      const out = errorBody(status, message);
      record(status, out);
      send(res, status, out, extra);
    };

    if (req.method !== 'POST' || (!isMessages && path !== '/v1/messages/count_tokens')) return fail(404);
    const key = req.headers['x-api-key'] ?? req.headers.authorization?.replace(/^Bearer\s+/i, '');
    if (!key) return fail(401, 'x-api-key header is required');
    if (options.apiKey !== undefined && key !== options.apiKey) return fail(401, 'invalid x-api-key');
    if (!req.headers['anthropic-version']) return fail(400, 'anthropic-version: header is required');
    if (body === null) return fail(400, 'There was an issue with the request body: it is not valid JSON');
    if (!isMessages && options.countTokens === false) return fail(404);
    try {
      checkRequest(body, { countOnly: !isMessages });
    } catch (err) {
      if (err instanceof WireError) return fail(err.status, err.message);
      throw err;
    }
    const blocks = blocksOf(body);
    const total = inputTokensOf(blocks);
    if (total > contextWindow)
      return fail(400, `prompt is too long: ${total} tokens > ${contextWindow} maximum`);
    if (!isMessages) {
      const out = { input_tokens: total };
      record(200, out);
      return send(res, 200, out);
    }

    const turn = queue.shift() ?? (await responder?.(request));
    if (!turn) return fail(400, 'anthropic simulator: no scripted turn is left for this request');
    const delay = (options.latencyMs ?? 0) + (turn.delayMs ?? 0);
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    if ('error' in turn) {
      const extra: Record<string, string> = {};
      const wait = turn.retryAfterMs ?? (turn.error === 429 ? 1_000 : undefined);
      if (wait !== undefined) {
        extra['retry-after'] = String(Math.max(1, Math.ceil(wait / 1000)));
        if (turn.retryAfterMs !== undefined) extra['retry-after-ms'] = String(wait);
      }
      const out = errorBody(turn.error, turn.message, turn.type);
      record(turn.error, out);
      return send(res, turn.error, out, extra);
    }
    if ('invalidJson' in turn) {
      const broken = '{"id":"msg_01broken","type":"message","content":[{"type":"te';
      record(200, broken);
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': newId('req') });
      return res.end(broken);
    }
    const usage = cache.use(body.model, blocks);
    const reply = answer(turn, request.toolName, body.max_tokens);
    const out = messageBody({ model: body.model, ...reply, usage: { ...usage, output: reply.output } });
    record(200, out);
    send(res, 200, out);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    requests,
    messages: () => requests.filter((r) => r.path === '/v1/messages'),
    enqueue: (...turns) => {
      queue.push(...turns);
    },
    setResponder: (fn) => {
      responder = fn;
    },
    pending: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The content of a successful reply, cut off at max_tokens as the API would. */
function answer(
  turn: Exclude<Turn, { error: number } | { invalidJson: true }>,
  tool: string | null,
  maxTokens: number,
) {
  let content: Json[];
  let stopReason: string;
  let output: number;
  if ('content' in turn) {
    content = turn.content;
    stopReason = turn.stopReason;
  } else if ('text' in turn) {
    content = [{ type: 'text', text: turn.text }];
    stopReason = 'end_turn';
  } else if (tool) {
    content = [{ type: 'tool_use', id: newId('toolu'), name: tool, input: turn.answer }];
    stopReason = turn.stopReason ?? 'tool_use';
  } else {
    content = [{ type: 'text', text: JSON.stringify(turn.answer) }];
    stopReason = turn.stopReason ?? 'end_turn';
  }
  output =
    'answer' in turn && turn.outputTokens !== undefined
      ? turn.outputTokens
      : tokensOf(JSON.stringify(content));
  if (output > maxTokens) {
    output = maxTokens;
    stopReason = 'max_tokens';
    content = content.map((b) =>
      b.type === 'tool_use'
        ? { ...b, input: {} }
        : b.type === 'text'
          ? { ...b, text: b.text.slice(0, maxTokens * 4) }
          : b,
    );
  }
  return { content, stopReason, output };
}

function send(res: http.ServerResponse, status: number, body: Json, extra: Record<string, string> = {}) {
  res.writeHead(status, {
    'content-type': 'application/json',
    'request-id': body?.request_id ?? newId('req'),
    ...extra,
  });
  res.end(JSON.stringify(body));
}

function redact(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    out[k] = k === 'x-api-key' || k === 'authorization' ? '[redacted]' : Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}
