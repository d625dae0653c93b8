import { describe, expect, it } from 'vitest';
import { isBootyError } from '../../src/errors.js';
import type { DeliveryRecord, EventStore, JobUpdate, NewEvent } from '../../src/store/event-store.js';

// The contract every EventStore must keep, all of it through promises. A second implementation runs
// this same suite. `reopen` gives a fresh store over the same storage, as a restarted process sees it.

export interface ContractTarget {
  /** A fresh, empty store; a server database may take a moment to make one. */
  make(): ContractStore | Promise<ContractStore>;
}

interface ContractStore {
  store: EventStore;
  reopen: () => EventStore | Promise<EventStore>;
}

const ev = (type: string, n: number, state = `s${n}`): NewEvent => ({ type, data: { n }, state });
/** An issue's `labeled` webhook delivery, recorded as created. */
export const delivery = (deliveryId: string, jobId: string | null = null): DeliveryRecord => ({
  deliveryId,
  event: 'issues',
  action: 'labeled',
  outcome: 'created',
  jobId,
});
const jobAt = (state: string, over: Partial<JobUpdate> = {}): JobUpdate => ({
  repo: 'o/r',
  issue: 4,
  state,
  attempts: 0,
  final: false,
  outcome: null,
  tokens: 0,
  ...over,
});

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the promise to reject');
}

export function eventStoreContract(name: string, target: ContractTarget) {
  describe(`EventStore contract: ${name}`, () => {
    it('given appends to two streams, when read, then each stream is in version order and readAll in append order', async () => {
      const { store } = await target.make();
      expect(await store.append('a', 0, [ev('A1', 1), ev('A2', 2)])).toMatchObject({ version: 2 });
      await store.append('b', 0, [ev('B1', 1)]);
      expect(await store.append('a', 2, [ev('A3', 3)])).toMatchObject({ version: 3 });

      expect((await store.readStream('a')).map((e) => [e.version, e.type, e.state])).toEqual([
        [1, 'A1', 's1'],
        [2, 'A2', 's2'],
        [3, 'A3', 's3'],
      ]);
      const all = await store.readAll();
      expect(all.map((e) => `${e.streamId}:${e.type}`)).toEqual(['a:A1', 'a:A2', 'b:B1', 'a:A3']);
      expect(all.map((e) => e.position)).toEqual([...all.map((e) => e.position)].sort((x, y) => x - y));
      expect((await store.readAll({ after: all[1]!.position })).map((e) => e.type)).toEqual(['B1', 'A3']);
      expect((await store.readAll({ after: 0, limit: 2 })).map((e) => e.type)).toEqual(['A1', 'A2']);
      expect((await store.readStream('a', { fromVersion: 2, toVersion: 2 })).map((e) => e.type)).toEqual([
        'A2',
      ]);
      expect(await store.streamVersion('a')).toBe(3);
      expect(await store.streamVersion('nope')).toBe(0);
    });

    it('given a stream at version 2, when appending at a stale or future version, then it rejects with a conflict and writes nothing', async () => {
      const { store } = await target.make();
      await store.append('s', 0, [ev('E1', 1), ev('E2', 2)]);
      for (const expected of [0, 1, 3]) {
        const caught = await rejection(
          store.append('s', expected, [ev('X', 9), ev('Y', 10)], {
            job: jobAt('x'),
            delivery: delivery(`d-${expected}`),
          }),
        );
        expect(isBootyError(caught, 'BOOTY_E_VERSION_CONFLICT')).toBe(true);
        expect((caught as Error).message).toContain('is at version 2');
      }
      expect((await store.readStream('s')).map((e) => e.type)).toEqual(['E1', 'E2']);
      expect((await store.readAll()).length).toBe(2);
      // Nothing of the failed appends stayed: not the job, not the deliveries.
      expect(await store.getJob('s')).toBeNull();
      expect(await store.recordDeliveries([delivery('d-0'), delivery('d-1'), delivery('d-3')])).toEqual([
        true,
        true,
        true,
      ]);
    });

    it('given two appends racing for the same version, then exactly one is written and the other conflicts', async () => {
      const { store } = await target.make();
      await store.append('r', 0, [ev('R1', 1)]);
      const results = await Promise.allSettled([
        store.append('r', 1, [ev('A', 2)]),
        store.append('r', 1, [ev('B', 2)]),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(isBootyError(rejected.reason, 'BOOTY_E_VERSION_CONFLICT')).toBe(true);
      expect((await store.readStream('r')).map((e) => e.type)).toHaveLength(2);
    });

    it('given an append with its delivery, when the delivery comes again, then the second writes nothing and says duplicate', async () => {
      const { store } = await target.make();
      const first = await store.append('job-d', 0, [ev('JobRequested', 1, 'preparing')], {
        job: jobAt('preparing'),
        delivery: delivery('once', 'job-d'),
      });
      expect(first).toMatchObject({ version: 1 });
      expect(first.duplicate).toBeUndefined();
      // The same delivery again, even for another stream: nothing is written anywhere.
      const again = await store.append('job-e', 0, [ev('JobRequested', 1, 'preparing')], {
        job: jobAt('preparing', { issue: 5 }),
        delivery: delivery('once', 'job-e'),
      });
      expect(again).toMatchObject({ duplicate: true, version: 0 });
      expect(await store.readStream('job-e')).toEqual([]);
      expect(await store.getJob('job-e')).toBeNull();
      expect(await store.recordDeliveries([delivery('once')])).toEqual([false]);
      expect((await store.readAll()).map((e) => e.streamId)).toEqual(['job-d']);
    });

    it('given deliveries recorded together, then each is recorded once and repeats answer false', async () => {
      const { store } = await target.make();
      expect(await store.recordDeliveries([delivery('a'), delivery('b'), delivery('a')])).toEqual([
        true,
        true,
        false,
      ]);
      expect(await store.recordDeliveries([delivery('b'), delivery('c')])).toEqual([false, true]);
      expect(await store.recordDeliveries([])).toEqual([]);
    });

    it('given recorded deliveries, when asked about GUIDs, then only those never recorded come back, once each and in order', async () => {
      const { store } = await target.make();
      await store.recordDeliveries([delivery('seen-1')]);
      await store.append('job-u', 0, [ev('JobRequested', 1, 'preparing')], {
        job: jobAt('preparing'),
        delivery: delivery('seen-2', 'job-u'),
      });
      expect(await store.unknownDeliveries(['new-b', 'seen-1', 'new-a', 'seen-2', 'new-b'])).toEqual([
        'new-b',
        'new-a',
      ]);
      expect(await store.unknownDeliveries([])).toEqual([]);
    });

    it('given looks at missed deliveries, then one is taken once per gap, and the last finished one is remembered across a reopen', async () => {
      const { store, reopen } = await target.make();
      expect(await store.takeDeliveryLook(1_000, 600_000)).toEqual({ lastLook: null });
      // Another worker within the gap finds it taken; at start (gap 0) a worker looks anyway.
      expect(await store.takeDeliveryLook(2_000, 600_000)).toBeNull();
      expect(await store.takeDeliveryLook(2_000, 0)).toEqual({ lastLook: null });
      await store.finishDeliveryLook(1_000);
      expect(await store.takeDeliveryLook(100_000, 600_000)).toBeNull();
      expect(await store.takeDeliveryLook(602_000, 600_000)).toEqual({ lastLook: 1_000 });
      // That look failed, finishing nothing: the next goes back to the last that went through.
      expect(await store.takeDeliveryLook(1_202_000, 600_000)).toEqual({ lastLook: 1_000 });
      await store.finishDeliveryLook(1_202_000);
      // A slow look finishing after a later one never moves the mark back.
      await store.finishDeliveryLook(602_000);
      const again = await reopen();
      expect(await again.takeDeliveryLook(1_900_000, 600_000)).toEqual({ lastLook: 1_202_000 });
    });

    it('given events and a job read model, when the store is reopened, then everything is still there', async () => {
      const { store, reopen } = await target.make();
      await store.append('job-1', 0, [ev('JobRequested', 1, 'preparing')], { job: jobAt('preparing') });
      await store.append('job-1', 1, [ev('Done', 2, 'failed')], {
        job: { state: 'failed', attempts: 2, final: true, outcome: 'tests-failing', tokens: 42 },
      });
      expect(await store.recordDeliveries([delivery('d1', 'job-1')])).toEqual([true]);
      await store.close();

      const again = await reopen();
      expect((await again.readStream('job-1')).map((e) => [e.type, e.state, e.data])).toEqual([
        ['JobRequested', 'preparing', { n: 1 }],
        ['Done', 'failed', { n: 2 }],
      ]);
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
      expect(await again.recordDeliveries([delivery('d1')])).toEqual([false]);
      await again.close();
    });

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

    it('given a first append without a repo and issue for its job, then it rejects and writes nothing', async () => {
      const { store } = await target.make();
      const caught = await rejection(
        store.append('nameless', 0, [ev('JobRequested', 1)], {
          job: { state: 'preparing', attempts: 0, final: false, outcome: null, tokens: 0 },
        }),
      );
      expect(isBootyError(caught, 'BOOTY_E_EVENT_INVALID')).toBe(true);
      expect(await store.readStream('nameless')).toEqual([]);
    });

    it('given a closed store, then its calls reject rather than answer', async () => {
      const { store } = await target.make();
      await store.close();
      await expect(store.readAll()).rejects.toThrow();
      await expect(store.append('z', 0, [ev('Z', 1)])).rejects.toThrow();
      await expect(store.recordDeliveries([delivery('z')])).rejects.toThrow();
    });
  });
}
