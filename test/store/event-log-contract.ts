import { describe, expect, it } from 'vitest';
import { isBootyError } from '../../src/errors.js';
import type { DeliveryLog } from '../../src/store/delivery-log.js';
import type { EventLog } from '../../src/store/event-log.js';
import type { JobIndex } from '../../src/store/job-index.js';
import { type Closable, delivery, ev, jobAt, rejection, type StoreMaker } from './contract-target.js';

// The contract every EventLog keeps, all of it through promises: streams in version order, the
// global order, expected-version conflicts, and an append's job and delivery committing with its
// events or not at all (seen through the jobs read model and the delivery log it writes).

export type LogUnderTest = EventLog &
  Pick<JobIndex, 'getJob'> &
  Pick<DeliveryLog, 'recordDeliveries'> &
  Closable;

export function eventLogContract(name: string, target: StoreMaker<LogUnderTest>) {
  describe(`EventLog contract: ${name}`, () => {
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

    it('given a first append without a repo and issue for its job, then it rejects and writes nothing', async () => {
      const { store } = await target.make();
      const caught = await rejection(
        store.append('nameless', 0, [ev('JobRequested', 1)], {
          job: { state: 'preparing', attempts: 0, final: false, outcome: null, tokens: 0 },
        }),
      );
      expect(isBootyError(caught, 'BOOTY_E_EVENT_INVALID')).toBe(true);
      expect(await store.readStream('nameless')).toEqual([]);
      expect(await store.getJob('nameless')).toBeNull();
    });

    it('given events, when the store is reopened, then they are still there', async () => {
      const { store, reopen } = await target.make();
      await store.append('job-1', 0, [ev('JobRequested', 1, 'preparing')]);
      await store.append('job-1', 1, [ev('Done', 2, 'failed')]);
      await store.close();

      const again = await reopen();
      expect((await again.readStream('job-1')).map((e) => [e.type, e.state, e.data])).toEqual([
        ['JobRequested', 'preparing', { n: 1 }],
        ['Done', 'failed', { n: 2 }],
      ]);
      expect(await again.streamVersion('job-1')).toBe(2);
      await again.close();
    });

    it('given a closed store, then its calls reject rather than answer', async () => {
      const { store } = await target.make();
      await store.close();
      await expect(store.readAll()).rejects.toThrow();
      await expect(store.append('z', 0, [ev('Z', 1)])).rejects.toThrow();
    });
  });
}
