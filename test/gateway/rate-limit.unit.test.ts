import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { BootyError } from '../../src/errors.js';
import { rateLimit } from '../../src/gateway/rate-limit.js';

// The jobs API's limit, on a clock the test moves: a window per key that opens with its first
// request, the headers a client paces itself by, and the refusal in booty's words.

async function limited(max: number) {
  let at = 1_000_000;
  const app = Fastify();
  app.addHook(
    'onRequest',
    rateLimit({ max, windowMs: 60_000, key: (r) => String(r.headers['x-key']), now: () => at }),
  );
  app.setErrorHandler((err: BootyError, _request, reply) =>
    reply.code(err.status).send({ code: err.code, message: err.message }),
  );
  app.get('/', async () => 'ok');
  await app.ready();
  const call = (key: string) => app.inject({ method: 'GET', url: '/', headers: { 'x-key': key } });
  return { call, pass: (ms: number) => (at += ms), close: () => app.close() };
}

describe('the rate limit', () => {
  it('takes max requests a window per key, then refuses with 429 and when to come back', async () => {
    const { call, pass, close } = await limited(2);
    expect((await call('a')).statusCode).toBe(200);
    pass(20_000);
    const second = await call('a');
    expect([
      second.statusCode,
      second.headers['x-ratelimit-remaining'],
      second.headers['x-ratelimit-reset'],
    ]).toEqual([200, '0', '40']);
    const third = await call('a');
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toBe('40');
    expect(third.json()).toEqual({
      code: 'BOOTY_E_API_RATE_LIMITED',
      message:
        "over the jobs API's limit of 2 requests a minute (BOOTY_API_RATE_LIMIT); try again in 40 seconds",
    });
    expect((await call('b')).statusCode).toBe(200);
    pass(40_000);
    expect((await call('a')).statusCode).toBe(200);
    await close();
  });
});
