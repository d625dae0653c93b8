import { afterEach, describe, expect, it, vi } from 'vitest';
import { decide, pacer } from '../../src/github/request-policy.js';

const limits = { retries: 3, transientRetries: 3, baseMs: 1000 };
const SECONDARY = 'You have exceeded a secondary rate limit. Please wait a few minutes.';
const now = Date.now();

describe('decide: what a failed GitHub request does next', () => {
  it.each([
    ['a 502, first failure', { status: 502 }, 0, limits, { retry: true, waitMs: 1000 }],
    ['a 502, third failure', { status: 502 }, 2, limits, { retry: true, waitMs: 9000 }],
    ['a 502 after every retry', { status: 502 }, 3, limits, { retry: false }],
    ['a lost connection (octokit says 500)', { status: 500 }, 0, limits, { retry: true, waitMs: 1000 }],
    [
      'a 502 on a create that must not repeat',
      { status: 502 },
      0,
      { ...limits, transientRetries: 0 },
      { retry: false },
    ],
    ['a 404', { status: 404 }, 0, limits, { retry: false }],
    ['a 422', { status: 422 }, 0, limits, { retry: false }],
    ['a plain 403', { status: 403, message: 'Resource not accessible' }, 0, limits, { retry: false }],
    [
      'a secondary limit naming Retry-After',
      { status: 403, message: SECONDARY, response: { headers: { 'retry-after': '7' } } },
      0,
      limits,
      { retry: true, waitMs: 7000 },
    ],
    [
      'a secondary limit naming nothing waits a minute',
      { status: 403, message: SECONDARY, response: { headers: {} } },
      0,
      limits,
      { retry: true, waitMs: 60_000 },
    ],
    [
      'a secondary limit on a create is retried: GitHub did nothing',
      { status: 403, message: SECONDARY, response: { headers: { 'retry-after': '1' } } },
      0,
      { ...limits, transientRetries: 0 },
      { retry: true, waitMs: 1000 },
    ],
    [
      'a secondary limit after every retry',
      { status: 429, message: SECONDARY, response: { headers: { 'retry-after': '1' } } },
      3,
      limits,
      { retry: false },
    ],
    [
      'a spent hourly limit resetting in 10 s',
      {
        status: 403,
        response: {
          headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(now / 1000) + 10) },
        },
      },
      0,
      limits,
      { retry: true },
    ],
    [
      'a spent hourly limit, the second time',
      {
        status: 403,
        response: {
          headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(now / 1000) + 10) },
        },
      },
      1,
      limits,
      { retry: false },
    ],
    [
      'a spent hourly limit resetting in an hour',
      {
        status: 429,
        response: {
          headers: {
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': String(Math.floor(now / 1000) + 3600),
          },
        },
      },
      0,
      limits,
      { retry: false },
    ],
    [
      'a GraphQL RATE_LIMITED error in a 200, resetting in 10 s',
      {
        status: 200,
        response: {
          headers: { 'x-ratelimit-reset': String(Math.floor(now / 1000) + 10) },
          data: { errors: [{ type: 'RATE_LIMITED' }] },
        },
      },
      0,
      limits,
      { retry: true },
    ],
    [
      'a GraphQL RATE_LIMITED error naming no reset time',
      { status: 200, response: { headers: {}, data: { errors: [{ type: 'RATE_LIMITED' }] } } },
      0,
      limits,
      { retry: false },
    ],
  ])('%s', (_name, failure, count, p, expected) => {
    const decision = decide(failure, count, p);
    expect(decision).toMatchObject(expected);
    if (decision.retry && !('waitMs' in expected)) {
      // Reset in about 10 s, plus the one second GitHub asks for.
      expect(decision.waitMs).toBeGreaterThanOrEqual(10_000);
      expect(decision.waitMs).toBeLessThanOrEqual(12_000);
    }
  });
});

describe('pacer', () => {
  afterEach(() => vi.useRealTimers());

  it('starts each turn at least the gap after the one before, in the order asked', async () => {
    vi.useFakeTimers({ now: 0 });
    const turn = pacer(1000);
    const started: [number, number][] = [];
    const all = [0, 1, 2].map((i) => turn().then(() => started.push([i, Date.now()])));
    await vi.runAllTimersAsync();
    await Promise.all(all);
    expect(started).toEqual([
      [0, 0],
      [1, 1000],
      [2, 2000],
    ]);
  });

  it('lets every waiting turn go at once when stopped: a shutdown does not wait out the queue', async () => {
    vi.useFakeTimers({ now: 0 });
    const stop = new AbortController();
    const turn = pacer(3000, stop.signal);
    const started: [number, number][] = [];
    const all = [0, 1, 2].map((i) => turn().then(() => started.push([i, Date.now()])));
    await vi.advanceTimersByTimeAsync(100);
    stop.abort();
    await Promise.all(all);
    expect(started).toEqual([
      [0, 0],
      [1, 100],
      [2, 100],
    ]);
  });
});
