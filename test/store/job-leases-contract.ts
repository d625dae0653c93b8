import { afterEach, describe, expect, it } from 'vitest';
import type { JobLeases, LeaseSettings } from '../../src/store/job-leases.js';
import { until } from '../support/until.js';

// The contract every JobLeases keeps: a job offered is leased to one worker at a time; a lease
// renewed outlives its period, one that lapses moves to another worker, and a worker whose lease
// lapsed can neither renew nor release it; a lease let go with a delay keeps its job from every
// worker until the delay ends, and the next take reads back its halts.

/** Several workers' leases on one fresh queue, and the way time passes for it. */
export interface LeaseQueue {
  worker(): JobLeases;
  /** Lets `ms` go by for the queue's leases and delays: a real wait, or a test clock moved. */
  elapse(ms: number): Promise<unknown>;
}

export interface LeasesMaker {
  make(settings: LeaseSettings): Promise<LeaseQueue>;
}

// Long enough that a worker on a loaded machine (two cores, test files in parallel) keeps renewing.
const SETTINGS: LeaseSettings = { seconds: 4, pollMs: 100 };

export function jobLeasesContract(name: string, target: LeasesMaker) {
  describe(`JobLeases contract: ${name}`, () => {
    const opened: JobLeases[] = [];
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((leases) => leases.close()));
    });
    const queue = async () => {
      const made = await target.make(SETTINGS);
      return {
        elapse: made.elapse,
        workers: () => {
          const pair = [made.worker(), made.worker()] as const;
          opened.push(...pair);
          return pair;
        },
      };
    };

    it('given a job offered twice by two workers, then one of them leases it, renewing keeps it past its period, and a lapsed lease moves to the other', async () => {
      const { workers, elapse } = await queue();
      const [a, b] = workers();
      await Promise.all([a.offer(['job-1']), b.offer(['job-1']), a.offer(['job-1'])]);
      const [first] = await a.take(5);
      expect(first).toMatchObject({ jobId: 'job-1', halts: 0 });
      expect(await b.take(5)).toEqual([]);

      // Renewed for half again its period: nobody else gets it.
      for (let i = 0; i < 5; i++) {
        await elapse(SETTINGS.seconds * 300);
        expect(await a.renew([first!])).toEqual([]);
        expect(await b.take(5)).toEqual([]);
      }

      // Not renewed (the worker died): the lease lapses after its period, a worker's lapse puts it
      // back, and the other takes it over.
      expect(await b.lapse()).toEqual([]);
      await elapse(SETTINGS.seconds * 1000);
      const moved = await until('the lease to lapse', async () => {
        const lapsed = await b.lapse();
        return lapsed.length > 0 && lapsed;
      });
      expect(moved).toEqual(['job-1']);
      expect(await a.lapse()).toEqual([]);
      const second = (await b.take(5))[0]!;
      expect(second).toMatchObject({ jobId: 'job-1', takenOver: true });
      expect(second.token).not.toBe(first!.token);
      // The first worker's lease is gone: its renewal says so, and its release touches nothing.
      expect(await a.renew([first!])).toEqual([first]);
      expect(await a.release(first!)).toBe(false);
      expect(await b.renew([second])).toEqual([]);
      expect(await b.release(second)).toBe(true);
      // Released, the job is in no queue until it is offered again.
      expect(await a.take(5)).toEqual([]);
      await b.offer(['job-1']);
      expect(await a.take(5)).toEqual([expect.objectContaining({ jobId: 'job-1', takenOver: false })]);
    });

    it('given jobs offered, leased and let go with a delay, then the stats count each once, as every worker sees them', async () => {
      const { workers, elapse } = await queue();
      const [a, b] = workers();
      expect(await a.stats()).toEqual({ queued: 0, oldestSeconds: 0, leased: 0, delayed: 0 });
      await a.offer(['job-1', 'job-2', 'job-3']);
      const [held, halted] = await a.take(2);
      await a.release(halted!, { seconds: 60, halts: 1 });
      await elapse(1_100);
      for (const w of [a, b]) {
        const stats = await w.stats();
        expect(stats).toMatchObject({ queued: 1, leased: 1, delayed: 1 });
        expect(stats.oldestSeconds).toBeGreaterThanOrEqual(1);
        expect(stats.oldestSeconds).toBeLessThan(30);
      }
      expect(held!.jobId).not.toBe(halted!.jobId);
    });

    it('given jobs offered, then a take leases at most as many as asked, and each job to one worker', async () => {
      const { workers } = await queue();
      const [a, b] = workers();
      await a.offer(['job-1', 'job-2', 'job-3']);
      expect(await a.take(0)).toEqual([]);
      const mine = await a.take(2);
      const theirs = await b.take(5);
      expect(mine).toHaveLength(2);
      expect([...mine, ...theirs].map((l) => l.jobId).sort()).toEqual(['job-1', 'job-2', 'job-3']);
      expect(await a.take(5)).toEqual([]);
      expect(await b.take(5)).toEqual([]);
    });

    it('given a lease let go with a delay, then no worker takes its job before the delay ends, an offer meanwhile changes nothing, and the next take reads back its halts', async () => {
      const { workers, elapse } = await queue();
      const [a, b] = workers();
      await a.offer(['job-1']);
      const [lease] = await a.take(5);
      expect(await a.release(lease!, { seconds: 2, halts: 3 })).toBe(true);
      // Let go: the lease is held no more.
      expect(await a.renew([lease!])).toEqual([lease]);
      expect(await a.release(lease!)).toBe(false);
      await b.offer(['job-1']);
      expect(await a.take(5)).toEqual([]);
      expect(await b.take(5)).toEqual([]);

      await elapse(2_000);
      const again = await until('the delay to end', async () => (await b.take(5))[0]);
      expect(again).toMatchObject({ jobId: 'job-1', halts: 3 });
      // Let go without a delay, and offered again: no halts are carried on.
      expect(await b.release(again)).toBe(true);
      await a.offer(['job-1']);
      expect(await a.take(5)).toEqual([expect.objectContaining({ jobId: 'job-1', halts: 0 })]);
    });

    it('given jobs let go with delays, then every worker is told how long until the soonest comes due, and null while none waits', async () => {
      const { workers, elapse } = await queue();
      const [a, b] = workers();
      expect(await b.nextDueIn()).toBeNull();
      await a.offer(['job-1', 'job-2', 'job-3']);
      const [one, two] = await a.take(2);
      await a.release(one!, { seconds: 60, halts: 1 });
      await a.release(two!, { seconds: 30, halts: 1 });
      // A job queued for now, or leased, is not delayed.
      const soonest = await b.nextDueIn();
      expect(soonest).toBeGreaterThan(25_000);
      expect(soonest).toBeLessThanOrEqual(30_000);
      await elapse(1_000);
      expect(await b.nextDueIn()).toBeLessThanOrEqual(soonest! - 1_000);
      const [three] = await b.take(5);
      expect(three).toMatchObject({ jobId: 'job-3' });
      expect(await b.nextDueIn()).toBeGreaterThan(20_000);
    });
  });
}
