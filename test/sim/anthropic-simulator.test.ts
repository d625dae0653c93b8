import { afterEach, describe, expect, it } from 'vitest';
import {
  type AnthropicSimulator,
  faults,
  scriptByTool,
  startAnthropicSimulator,
} from '../../sim/anthropic/anthropic-simulator.js';

let sim: AnthropicSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const headers = { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2023-06-01' };
const tool = { name: 'submit', input_schema: { type: 'object', properties: {} } };
const long = 'The repository context. '.repeat(250);
const request = (extra: Record<string, unknown> = {}) => ({
  model: 'claude-sonnet-4-6',
  max_tokens: 500,
  tools: [tool],
  tool_choice: { type: 'tool', name: 'submit' },
  system: [{ type: 'text', text: long, cache_control: { type: 'ephemeral' } }],
  messages: [{ role: 'user', content: 'hello' }],
  ...extra,
});

async function post(path: string, body: unknown, h: Record<string, string> = headers) {
  const res = await fetch(`${sim!.url}${path}`, {
    method: 'POST',
    headers: h,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, text, json };
}

describe('Anthropic simulator', () => {
  it('wraps a structured answer as the forced tool_use, with real usage, and reads the cached prefix on repeat', async () => {
    sim = await startAnthropicSimulator({ script: [{ answer: { ok: 1 } }, { answer: { ok: 2 } }] });

    const first = await post('/v1/messages', request());
    const second = await post('/v1/messages', request());

    expect(first.status).toBe(200);
    expect(first.headers.get('request-id')).toMatch(/^req_01\w{22}$/);
    expect(first.json).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-6',
      stop_reason: 'tool_use',
      stop_sequence: null,
      content: [{ type: 'tool_use', name: 'submit', input: { ok: 1 } }],
    });
    expect(first.json.id).toMatch(/^msg_01/);
    expect(first.json.content[0].id).toMatch(/^toolu_01/);
    const prefix = 8 + Math.ceil(JSON.stringify(tool).length / 4) + Math.ceil(long.length / 4);
    expect(first.json.usage).toEqual({
      input_tokens: 2,
      output_tokens: first.json.usage.output_tokens,
      cache_creation_input_tokens: prefix,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: prefix, ephemeral_1h_input_tokens: 0 },
      server_tool_use: null,
      service_tier: 'standard',
    });
    expect(second.json.usage).toMatchObject({
      input_tokens: 2,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: prefix,
    });

    const counted = await post('/v1/messages/count_tokens', request({ max_tokens: undefined }));
    expect(counted.json).toEqual({ input_tokens: prefix + 2 });
    expect(sim.requests.map((r) => r.path)).toEqual([
      '/v1/messages',
      '/v1/messages',
      '/v1/messages/count_tokens',
    ]);
    expect(sim.requests[0]!.headers['x-api-key']).toBe('[redacted]');
    expect(sim.requests[0]!.body.system[0].cache_control).toEqual({ type: 'ephemeral' });
  });

  it('answers faults on cue with the API error shapes and headers', async () => {
    sim = await startAnthropicSimulator({
      script: [faults.rateLimited(2_500), faults.overloaded(), faults.serverError(), faults.invalidJson()],
    });

    const limited = await post('/v1/messages', request());
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(limited.headers.get('retry-after-ms')).toBe('2500');
    expect(limited.json).toEqual({
      type: 'error',
      error: {
        type: 'rate_limit_error',
        message: 'Number of request tokens has exceeded your per-minute rate limit',
      },
      request_id: limited.headers.get('request-id'),
    });
    const overloaded = await post('/v1/messages', request());
    expect([overloaded.status, overloaded.json.error.type]).toEqual([529, 'overloaded_error']);
    expect(overloaded.headers.get('retry-after')).toBeNull();
    const server = await post('/v1/messages', request());
    expect([server.status, server.json.error.type]).toEqual([500, 'api_error']);
    const broken = await post('/v1/messages', request());
    expect(broken.status).toBe(200);
    expect(broken.json).toBeNull();
    expect(sim.pending()).toBe(0);
  });

  it('refuses what the API refuses: no key, a wrong key, bad JSON, unpaired tool_use, too many breakpoints', async () => {
    sim = await startAnthropicSimulator({ apiKey: 'k', script: [] });
    const noKey = await post('/v1/messages', request(), { 'anthropic-version': '2023-06-01' });
    expect([noKey.status, noKey.json.error]).toEqual([
      401,
      { type: 'authentication_error', message: 'x-api-key header is required' },
    ]);
    const wrong = await post('/v1/messages', request(), { ...headers, 'x-api-key': 'nope' });
    expect(wrong.json.error.message).toBe('invalid x-api-key');
    const bearer = await post('/v1/messages/count_tokens', request(), {
      authorization: 'Bearer k',
      'anthropic-version': '2023-06-01',
    });
    expect(bearer.status).toBe(200);
    const badJson = await post('/v1/messages', '{"model":');
    expect([badJson.status, badJson.json.error.type]).toEqual([400, 'invalid_request_error']);
    const unpaired = await post(
      '/v1/messages',
      request({
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'submit', input: {} }] },
          { role: 'user', content: 'again' },
        ],
      }),
    );
    expect(unpaired.json.error.message).toBe(
      'messages.2: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    );
    const cc = { type: 'text', text: 'x', cache_control: { type: 'ephemeral' } };
    const many = await post('/v1/messages', request({ system: [cc, cc, cc, cc, cc] }));
    expect(many.json.error.message).toBe(
      'A maximum of 4 blocks with cache_control may be provided. Found 5.',
    );
    const unknown = await post('/v1/complete', request());
    expect([unknown.status, unknown.json.error.type]).toEqual([404, 'not_found_error']);
  });

  it('answers per tool from a responder, cuts an answer off at max_tokens, and can lack count_tokens', async () => {
    sim = await startAnthropicSimulator({ countTokens: false });
    sim.setResponder(scriptByTool({ submit: [{ answer: { big: 'x'.repeat(400) } }] }));

    const cut = await post('/v1/messages', request({ max_tokens: 10 }));
    expect(cut.json.stop_reason).toBe('max_tokens');
    expect(cut.json.usage.output_tokens).toBe(10);
    expect(cut.json.content[0].input).toEqual({});
    const none = await post('/v1/messages', request());
    expect(none.json.error.message).toBe('anthropic simulator: no scripted turn is left for this request');
    const count = await post('/v1/messages/count_tokens', request());
    expect(count.status).toBe(404);
  });

  it('takes its latency over every answer, and not over counting tokens', async () => {
    sim = await startAnthropicSimulator({ latencyMs: 1_000, script: [{ answer: { ok: 1 } }] });

    const answered = post('/v1/messages', request());
    // Sent after the message, answered before it: only messages wait.
    const counted = await post('/v1/messages/count_tokens', request({ max_tokens: undefined }));
    expect(counted.status).toBe(200);
    expect(sim.messages()).toEqual([]);
    expect((await answered).json.content[0].input).toEqual({ ok: 1 });
    expect(sim.requests.map((r) => r.path)).toEqual(['/v1/messages/count_tokens', '/v1/messages']);
  });
});
