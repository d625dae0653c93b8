import { describe, expect, it } from 'vitest';
import type { EventLog } from '../../src/store/event-log.js';
import type { JobIndex } from '../../src/store/job-index.js';
import { type Closable, ev, jobAt, type StoreMaker } from './contract-target.js';

// The contract every JobIndex keeps: the jobs read model as the appends that carry a job left it
// (EventLog.append's `job`, the only way in), found by issue and by pull request, its reports owed
// and told, damaged jobs taken out of the running.

export type IndexUnderTest = JobIndex & Pick<EventLog, 'append'> & Closable;

export function jobIndexContract(name: string, target: StoreMaker<IndexUnderTest>) {
  describe(`JobIndex contract: ${name}`, () => {
    it('given unfinished and finished jobs, when listed, then only the unfinished count as active for their issue', async () => {
      const { store } = await target.make();
      const job = (id: string, issue: number, final: boolean) =>
        store.append(id, 0, [ev('JobRequested', 1)], {
          job: jobAt(final ? 'promoted' : 'analyzing', { issue, attempts: 1, final }),
        });
      await job('j1', 1, true);
      await job('j2', 1, false);
      await job('j3', 2, true);
      const ids = async (jobs: Promise<{ jobId: string }[]>) => (await jobs).map((j) => j.jobId).sort();
      expect(await ids(store.listJobs({ unfinished: true }))).toEqual(['j2']);
      expect(await ids(store.listJobs())).toEqual(['j1', 'j2', 'j3']);
      expect((await store.findActiveJob('o/r', 1))?.jobId).toBe('j2');
      expect(await store.findActiveJob('o/r', 2)).toBeNull();
      expect(await ids(store.jobsForIssue('o/r', 1))).toEqual(['j1', 'j2']);
      expect(await ids(store.listUnreported())).toEqual(['j1', 'j2', 'j3']);
      await store.markReported('j1', 1);
      expect(await ids(store.listUnreported())).toEqual(['j2', 'j3']);
      expect(await store.markDamaged('j2')).toBe(true);
      expect(await store.markDamaged('j2')).toBe(false);
      expect(await store.getJob('j2')).toMatchObject({ state: 'damaged', final: true });
      expect(await store.findActiveJob('o/r', 1)).toBeNull();
      expect(await store.countJobsByState()).toEqual({ promoted: 2, damaged: 1 });
    });

    it('given a job with a PR marked damaged, then its PR still finds it (not an unfinished one first), and its report is owed until told', async () => {
      const { store } = await target.make();
      const withPr = (id: string, pr: number, branch: string) =>
        store.append(id, 0, [ev('JobRequested', 1), ev('StepSucceeded', 2)], {
          job: jobAt('promoted', { branch, pr }),
        });
      await withPr('old', 7, 'booty/issue-4-one');
      await store.markReported('old', 2);
      expect(await store.listUnreported()).toEqual([]);
      expect(await store.markDamaged('old')).toBe(true);
      expect(await store.findActiveJob('o/r', 4)).toBeNull();
      for (const ref of [{ pr: 7 }, { branch: 'booty/issue-4-one' }])
        expect(await store.findJobForPr('o/r', ref)).toMatchObject({ jobId: 'old', state: 'damaged' });
      // Owed: the damage has not been said on the issue yet.
      expect((await store.listUnreported()).map((j) => j.jobId)).toEqual(['old']);
      await store.markReported('old', 2);
      expect(await store.listUnreported()).toEqual([]);
      // A job that finished normally is found by its PR no more; an unfinished one comes first.
      await withPr('merged', 8, 'booty/issue-4-two');
      await store.append('merged', 2, [ev('PrClosed', 3)], {
        job: jobAt('merged', { final: true, outcome: 'merged' }),
      });
      expect(await store.findJobForPr('o/r', { pr: 8 })).toBeNull();
      await store.append('next', 0, [ev('JobRequested', 1)], {
        job: jobAt('promoted', { issue: 5, branch: 'booty/issue-4-one', pr: 9 }),
      });
      expect((await store.findJobForPr('o/r', { branch: 'booty/issue-4-one' }))?.jobId).toBe('next');
    });

    it('given a report told up to a version, when an older one is told late, then the mark stays', async () => {
      const { store } = await target.make();
      await store.append('j', 0, [ev('JobRequested', 1), ev('StepSucceeded', 2), ev('StepSucceeded', 3)], {
        job: jobAt('analyzing'),
      });
      await store.markReported('j', 3);
      await store.markReported('j', 1);
      expect(await store.getJob('j')).toMatchObject({ version: 3, reportedVersion: 3 });
      expect(await store.listUnreported()).toEqual([]);
    });

    it('given a job read model, when the store is reopened, then it is still there', async () => {
      const { store, reopen } = await target.make();
      await store.append('job-1', 0, [ev('JobRequested', 1, 'preparing')], { job: jobAt('preparing') });
      await store.append('job-1', 1, [ev('Done', 2, 'failed')], {
        job: { state: 'failed', attempts: 2, final: true, outcome: 'tests-failing', tokens: 42 },
      });
      await store.close();

      const again = await reopen();
      expect(await again.getJob('job-1')).toMatchObject({
        repo: 'o/r',
        issue: 4,
        state: 'failed',
        attempts: 2,
        final: true,
        outcome: 'tests-failing',
        tokens: 42,
        version: 2,
      });
      await again.close();
    });

    it('given a job run by one worker, then it shows that worker and since when, kept while it holds the job again, and let go only by that worker', async () => {
      const { store } = await target.make();
      await store.append('j1', 0, [ev('JobRequested', 1)], { job: jobAt('analyzing') });
      expect(await store.getJob('j1')).toMatchObject({ heldBy: null, heldSince: null });
      const before = Date.now();
      await store.markHeld('j1', 'host-a:1');
      const held = (await store.getJob('j1'))!;
      expect(held.heldBy).toBe('host-a:1');
      expect(held.heldSince).toBeGreaterThanOrEqual(before);
      // The same worker again (a run resumed after a pause): since when stays.
      await new Promise((resolve) => setTimeout(resolve, 5));
      await store.markHeld('j1', 'host-a:1');
      expect(await store.getJob('j1')).toMatchObject({ heldBy: 'host-a:1', heldSince: held.heldSince });
      // Another worker took it over: it shows the other, from now; the first one's let-go is no-op.
      await store.markHeld('j1', 'host-b:2');
      const moved = (await store.getJob('j1'))!;
      expect(moved.heldBy).toBe('host-b:2');
      expect(moved.heldSince).toBeGreaterThan(held.heldSince!);
      await store.markLetGo('j1', 'host-a:1');
      expect(await store.getJob('j1')).toMatchObject({ heldBy: 'host-b:2' });
      await store.markLetGo('j1', 'host-b:2');
      expect(await store.getJob('j1')).toMatchObject({ heldBy: null, heldSince: null });
      await store.markHeld('j1', 'host-b:2');
      await store.clearHeld();
      expect(await store.getJob('j1')).toMatchObject({ heldBy: null, heldSince: null });
    });

    it("given events with their dollars, then an installation's spend since a time counts its own jobs' events from then", async () => {
      const { store } = await target.make();
      const spend = (usd: number) => ({ ...ev('StepSucceeded', 2), meta: { usd } });
      await store.append('a', 0, [ev('JobRequested', 1), spend(0.25)], {
        job: { ...jobAt('analyzing', { issue: 1 }), installation: 7 },
      });
      await store.append('b', 0, [ev('JobRequested', 1), spend(0.5)], {
        job: { ...jobAt('analyzing', { issue: 2 }), installation: 8 },
      });
      await store.append('c', 0, [ev('JobRequested', 1), spend(1)], {
        job: jobAt('analyzing', { issue: 3 }),
      });
      const later = Date.now() + 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      await store.append('a', 2, [spend(0.125)], { job: jobAt('generating', { issue: 1 }) });
      expect(await store.spentSince(0, 7)).toBeCloseTo(0.375);
      expect(await store.spentSince(later, 7)).toBeCloseTo(0.125);
      expect(await store.spentSince(0, 8)).toBeCloseTo(0.5);
      expect(await store.spentSince(0, null)).toBeCloseTo(1);
      expect(await store.spentSince(0, 9)).toBe(0);
    });

    it('given a closed store, then its calls reject rather than answer', async () => {
      const { store } = await target.make();
      await store.close();
      await expect(store.getJob('z')).rejects.toThrow();
      await expect(store.listJobs()).rejects.toThrow();
      await expect(store.markDamaged('z')).rejects.toThrow();
    });
  });
}
