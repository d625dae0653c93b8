import { createHash, randomBytes } from 'node:crypto';

// The Messages API's wire format, as the simulator speaks it: request checks with the API's own
// error messages, token counting (a fixed 4 characters a token, so tests can reason about it),
// prompt caching by prefix hash at each cache_control breakpoint, and the response shapes.

export type Json = any;

export interface ApiErrorBody {
  type: 'error';
  error: { type: string; message: string };
  request_id: string;
}

export const errorTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

export const defaultMessages: Record<number, string> = {
  400: 'Invalid request',
  401: 'invalid x-api-key',
  403: 'Your API key does not have permission to use the specified resource.',
  404: 'Not found',
  413: 'Request exceeds the maximum allowed number of bytes.',
  429: 'Number of request tokens has exceeded your per-minute rate limit',
  500: 'Internal server error',
  529: 'Overloaded',
};

const base62 = (n: number) =>
  [...randomBytes(n)]
    .map((b) => '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'[b % 62])
    .join('');
export const newId = (prefix: 'msg' | 'req' | 'toolu') => `${prefix}_01${base62(22)}`;

export function errorBody(status: number, message?: string, type?: string): ApiErrorBody {
  return {
    type: 'error',
    error: {
      type: type ?? errorTypes[status] ?? 'api_error',
      message: message ?? defaultMessages[status] ?? 'Error',
    },
    request_id: newId('req'),
  };
}

export class WireError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const invalid = (message: string) => new WireError(400, message);

/** Checks a Messages (or count_tokens) body the way the API does, throwing its 400 messages. */
export function checkRequest(body: Json, options: { countOnly: boolean }): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalid('Input should be a valid dictionary');
  if (typeof body.model !== 'string' || !body.model) throw invalid('model: Field required');
  if (!options.countOnly && !(Number.isInteger(body.max_tokens) && body.max_tokens >= 1))
    throw invalid('max_tokens: Field required');
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    throw invalid('messages: at least one message is required');
  // API version 2026-10-21 took the sampling parameters out; sending one, even the default, is a 400.
  for (const sampling of ['temperature', 'top_p', 'top_k']) {
    if (sampling in body) throw invalid(`${sampling}: Extra inputs are not permitted`);
  }
  const tools: Json[] = body.tools ?? [];
  tools.forEach((tool, i) => {
    if (typeof tool?.name !== 'string' || !/^[a-zA-Z0-9_-]{1,128}$/.test(tool.name))
      throw invalid(`tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`);
    if (tool.input_schema?.type !== 'object')
      throw invalid(`tools.${i}.custom.input_schema.type: Input should be 'object'`);
  });
  const choice = body.tool_choice;
  if (choice?.type === 'tool' && !tools.some((t) => t.name === choice.name))
    throw invalid(`tool_choice: Tool '${choice.name}' not found in provided tools`);
  if (Array.isArray(body.system))
    body.system.forEach((b: Json, i: number) => {
      if (b?.type !== 'text' || !b.text) throw invalid(`system.${i}: text content blocks must be non-empty`);
    });
  checkMessages(body.messages);
  const breakpoints = blocksOf(body).filter((b) => b.cached).length;
  if (breakpoints > 4)
    throw invalid(`A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.`);
}

function checkMessages(messages: Json[]): void {
  let expectResults: string[] = [];
  messages.forEach((m, i) => {
    if (m?.role !== 'user' && m?.role !== 'assistant')
      throw invalid(`messages.${i}.role: Input should be 'user' or 'assistant'`);
    const content: Json[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    if (!Array.isArray(content) || content.length === 0)
      throw invalid(`messages.${i}: all messages must have non-empty content`);
    content.forEach((b, j) => {
      if (b?.type === 'text' && !b.text)
        throw invalid(`messages.${i}.content.${j}: text content blocks must be non-empty`);
    });
    const results = content.filter((b) => b?.type === 'tool_result').map((b) => String(b.tool_use_id));
    const missing = expectResults.filter((id) => !results.includes(id));
    if (missing.length > 0)
      throw invalid(
        `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
      );
    const unexpected = results.find((id) => !expectResults.includes(id));
    if (unexpected)
      throw invalid(
        `messages.${i}.content.${content.findIndex((b) => b?.tool_use_id === unexpected)}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${unexpected}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
      );
    expectResults =
      m.role === 'assistant' ? content.filter((b) => b?.type === 'tool_use').map((b) => String(b.id)) : [];
  });
  if (expectResults.length > 0)
    throw invalid(
      `messages: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${expectResults.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
    );
}

/** Tokens of a text: a fixed four characters a token. */
export const tokensOf = (text: string) => Math.ceil(text.length / 4);

/** The request's blocks in cache-prefix order (tools, system, messages), each with its tokens. */
export interface PromptBlock {
  key: string;
  tokens: number;
  cached: boolean;
}

const BASE_TOKENS = 8;

export function blocksOf(body: Json): PromptBlock[] {
  const blocks: PromptBlock[] = [];
  const add = (text: string, raw: Json, cached = Boolean(raw?.cache_control)) => {
    const { cache_control: _ignored, ...rest } =
      typeof raw === 'object' && raw !== null ? raw : { text: raw };
    blocks.push({ key: JSON.stringify(rest), tokens: tokensOf(text), cached });
  };
  for (const tool of body.tools ?? []) add(JSON.stringify({ ...tool, cache_control: undefined }), tool);
  if (typeof body.system === 'string') add(body.system, { type: 'text', text: body.system }, false);
  else for (const b of body.system ?? []) add(b.text ?? '', b);
  for (const m of body.messages ?? []) {
    const content: Json[] =
      typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content ?? []);
    content.forEach((b, j) => {
      const text =
        b.type === 'text'
          ? b.text
          : b.type === 'tool_use'
            ? b.name + JSON.stringify(b.input)
            : b.type === 'tool_result'
              ? typeof b.content === 'string'
                ? b.content
                : JSON.stringify(b.content ?? '')
              : JSON.stringify(b);
      add(text ?? '', j === 0 ? { role: m.role, ...b } : b, Boolean(b.cache_control));
    });
  }
  if (body.cache_control && blocks.length > 0) blocks[blocks.length - 1]!.cached = true;
  return blocks;
}

export const inputTokensOf = (blocks: PromptBlock[]) => blocks.reduce((n, b) => n + b.tokens, BASE_TOKENS);

/** Block boundaries the API checks for a cache hit at and before each breakpoint. */
const LOOKBACK_BLOCKS = 20;

/**
 * Prompt caching as the API does it: a prefix up to a breakpoint is written once and read while it
 * lives. A request reads the longest prefix written before, found at a breakpoint or at one of the
 * 20 block boundaries before it; what follows it up to the last breakpoint long enough to store is
 * written; the rest is plain input.
 */
export class PromptCache {
  private readonly entries = new Map<string, number>();

  constructor(
    private readonly minTokens: number,
    private readonly ttlMs = 5 * 60_000,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Splits the request's input tokens into uncached, read from cache and written to cache. */
  use(model: string, blocks: PromptBlock[]): { input: number; read: number; write: number } {
    const total = inputTokensOf(blocks);
    // The prefix ending at each block: its hash and its tokens.
    const ends: { hash: string; tokens: number; cached: boolean }[] = [];
    const hash = createHash('sha256').update(model);
    let tokens = BASE_TOKENS;
    for (const block of blocks) {
      hash.update('\u0001').update(block.key);
      tokens += block.tokens;
      ends.push({ hash: hash.copy().digest('hex'), tokens, cached: block.cached });
    }
    const now = this.clock();
    const live = (i: number) => (this.entries.get(ends[i]!.hash) ?? 0) > now;
    let readAt = -1;
    ends.forEach((end, i) => {
      if (!end.cached) return;
      for (let j = i; j >= Math.max(0, i - LOOKBACK_BLOCKS + 1) && j > readAt; j--) {
        if (live(j)) {
          readAt = j;
          break;
        }
      }
    });
    const read = readAt < 0 ? 0 : ends[readAt]!.tokens;
    if (readAt >= 0) this.entries.set(ends[readAt]!.hash, now + this.ttlMs);
    let write = 0;
    for (let i = readAt + 1; i < ends.length; i++) {
      if (!ends[i]!.cached || ends[i]!.tokens < this.minTokens) continue;
      this.entries.set(ends[i]!.hash, now + this.ttlMs);
      write = ends[i]!.tokens - read;
    }
    return { input: total - read - write, read, write };
  }
}

export interface MessageUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
  server_tool_use: null;
  service_tier: 'standard';
}

export function messageBody(input: {
  model: string;
  content: Json[];
  stopReason: string;
  usage: { input: number; read: number; write: number; output: number };
}) {
  const usage: MessageUsage = {
    input_tokens: input.usage.input,
    output_tokens: input.usage.output,
    cache_creation_input_tokens: input.usage.write,
    cache_read_input_tokens: input.usage.read,
    cache_creation: { ephemeral_5m_input_tokens: input.usage.write, ephemeral_1h_input_tokens: 0 },
    server_tool_use: null,
    service_tier: 'standard',
  };
  return {
    id: newId('msg'),
    type: 'message',
    role: 'assistant',
    model: input.model,
    content: input.content,
    stop_reason: input.stopReason,
    stop_sequence: null,
    usage,
  };
}

/** The tool the request forces (or its only tool): where a structured answer goes. */
export function answerToolOf(body: Json): string | null {
  const tools: Json[] = body.tools ?? [];
  const choice = body.tool_choice;
  if (choice?.type === 'tool') return choice.name;
  if (choice?.type === 'none') return null;
  if (tools.length === 1 || (choice?.type === 'any' && tools.length > 0)) return tools[0].name;
  return null;
}
