import { describe, expect, it } from 'vitest';
import { MemoryJobLeases, MemoryLeaseQueue } from '../../src/store/memory-job-leases.js';
import { jobLeasesContract } from './job-leases-contract.js';

// The in-memory leases keep the same contract as pg-boss's, on a clock the test moves: a lease's
// period and a delay pass at once.

jobLeasesContract('in memory', {
  async make(settings) {
    let now = 0;
    const queue = new MemoryLeaseQueue(() => now);
    return {
      worker: () => new MemoryJobLeases(settings, queue),
      async elapse(ms) {
        now += ms;
      },
    };
  },
});

describe('MemoryJobLeases', () => {
  it('given a lease past its end, then its holder can neither renew nor release it, even before another worker takes its job', async () => {
    let now = 0;
    const leases = new MemoryJobLeases({ seconds: 4, pollMs: 100 }, new MemoryLeaseQueue(() => now));
    await leases.offer(['job-1']);
    const [lease] = await leases.take(1);
    now += 3_999;
    expect(await leases.renew([lease!])).toEqual([]);
    // Renewed at 3.999 s, it ends at 7.999 s.
    now += 3_999;
    expect(await leases.renew([lease!])).toEqual([]);
    now += 4_000;
    expect(await leases.renew([lease!])).toEqual([lease]);
    expect(await leases.release(lease!)).toBe(false);
    // Lapsed, and not put back yet: no take leases it.
    expect(await leases.take(1)).toEqual([]);
    expect(await leases.lapse()).toEqual(['job-1']);
    const [again] = await leases.take(1);
    expect(again).toMatchObject({ jobId: 'job-1', halts: 0, takenOver: true });
    expect(again!.token).not.toBe(lease!.token);
  });
});
