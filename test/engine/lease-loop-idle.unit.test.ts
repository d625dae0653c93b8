import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LeaseLoop, type RunEnd } from '../../src/engine/lease-loop.js';
import type { Lease } from '../../src/store/job-leases.js';
import { MemoryJobLeases } from '../../src/store/memory-job-leases.js';

// An idle worker is woken only by the looks and checks the queue needs (a few a minute at the
// default settings), counted here on fake timers: each timer that fires is one wake-up of the
// process. A paused run still asks twice a second until its lease is renewed.

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** The timers that fire over `ms`, one at a time, each run to its end (its promises settled). */
async function wakeUps(ms: number): Promise<number> {
  const end = Date.now() + ms;
  let fired = 0;
  while (Date.now() < end && vi.getTimerCount() > 0) {
    await vi.advanceTimersToNextTimerAsync();
    fired++;
  }
  return fired;
}

/** Leases in memory that note when they renew a held lease. */
class NotedLeases extends MemoryJobLeases {
  readonly renewals: number[] = [];

  override async renew(leases: Lease[]): Promise<Lease[]> {
    if (leases.length > 0) this.renewals.push(Date.now());
    return super.renew(leases);
  }
}

/** A lease loop at the default settings (30 s leases, a look a second), on leases in memory. */
function loop(run: () => Promise<RunEnd>) {
  const leases = new NotedLeases({ seconds: 30, pollMs: 1_000 });
  const resumed: string[] = [];
  const lease = new LeaseLoop({
    leases,
    slots: 1,
    run,
    released: async () => {},
    lapsed: () => {},
    cutOff: () => {},
    resumed: (jobId) => resumed.push(jobId),
    renewed: async () => {},
    sweep: async () => {},
    onError: (err) => {
      throw err;
    },
  });
  return { leases, lease, renewals: leases.renewals, resumed };
}

describe('an idle lease loop', () => {
  it('given no jobs, then once its looks have backed off it wakes less than once every two seconds', async () => {
    const { lease } = loop(async () => undefined);
    lease.start();
    await wakeUps(60_000);
    // Its timers: renewal and its check (10 s, 5 s), lapse (15 s), sweep (60 s), a look (10 s).
    expect(await wakeUps(60_000)).toBeLessThan(30);
    await lease.stop();
  });

  it('given a run paused for the store, then it renews every half second until renewed, and is idle again after', async () => {
    let runs = 0;
    const { leases, lease, renewals, resumed } = loop(async () => (++runs === 1 ? 'paused' : undefined));
    await leases.offer(['job-1']);
    lease.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(renewals).toHaveLength(1);
    expect(resumed).toEqual(['job-1']);
    expect(runs).toBe(2);
    await wakeUps(60_000);
    expect(await wakeUps(60_000)).toBeLessThan(30);
    await lease.stop();
  });
});

describe('a delayed job coming due', () => {
  it('given a job another worker let go with a delay, then an idle loop takes it when it comes due, not at a backed-off look', async () => {
    const started: number[] = [];
    const { leases, lease } = loop(async () => {
      started.push(Date.now());
      return undefined;
    });
    lease.start();
    // Idle long enough that its looks are 10 s apart.
    await wakeUps(60_000);
    // Another worker on the same queue runs the job, which halts: it is let go for 25.5 s.
    await leases.offer(['job-1']);
    const [held] = await leases.take(1);
    await leases.release(held!, { seconds: 25.5, halts: 1 });
    const dueAt = Date.now() + 25_500;
    await vi.advanceTimersByTimeAsync(40_000);
    expect(started).toHaveLength(1);
    expect(started[0]! - dueAt).toBeGreaterThanOrEqual(0);
    expect(started[0]! - dueAt).toBeLessThan(100);
    await lease.stop();
  });
});
