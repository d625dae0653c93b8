import { afterEach, describe, expect, it, vi } from 'vitest';
import { pacer, waitAsked } from '../../../src/forges/github/request-policy.js';

const SECONDARY = 'You have exceeded a secondary rate limit. Please wait a few minutes.';
const now = 1_700_000_000_000;
const resetIn = (s: number) => String(Math.floor(now / 1000) + s);

// The request policy retries nothing; it names the wait GitHub asks for, which the job's step
// retry honours (up to its cap). Everything else waits the step's own backoff.
describe('waitAsked: the wait a failed GitHub request names', () => {
  it.each([
    ['a 502', { status: 502 }, null],
    ['a lost connection (octokit says 500)', { status: 500 }, null],
    ['a 404', { status: 404 }, null],
    ['a plain 403', { status: 403, message: 'Resource not accessible' }, null],
    [
      'a secondary limit naming Retry-After',
      { status: 403, message: SECONDARY, response: { headers: { 'retry-after': '7' } } },
      7000,
    ],
    [
      'a secondary limit naming nothing waits a minute',
      { status: 403, message: SECONDARY, response: { headers: {} } },
      60_000,
    ],
    ['a 429 naming Retry-After', { status: 429, response: { headers: { 'retry-after': '3' } } }, 3000],
    [
      'a spent hourly limit: until its reset, plus a second',
      {
        status: 403,
        response: { headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': resetIn(10) } },
      },
      11_000,
    ],
    [
      'a spent hourly limit naming no reset',
      { status: 403, response: { headers: { 'x-ratelimit-remaining': '0' } } },
      null,
    ],
    [
      'a GraphQL RATE_LIMITED error in a 200',
      {
        status: 200,
        response: {
          headers: { 'x-ratelimit-reset': resetIn(5) },
          data: { errors: [{ type: 'RATE_LIMITED' }] },
        },
      },
      6000,
    ],
  ])('%s', (_name, failure, expected) => {
    expect(waitAsked(failure, now)).toBe(expected);
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
