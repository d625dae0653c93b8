import { describe, expect, it } from 'vitest';
import { isBootyError } from '../../src/errors.js';
import type { EventStore, NewEvent } from '../../src/store/event-store.js';

// The contract every EventStore must keep. A second implementation runs this same suite.
// `reopen` gives a fresh store over the same storage, as a restarted process would see it.

export interface ContractTarget {
  make(): { store: EventStore; reopen: () => EventStore };
}

const ev = (type: string, n: number, state = `s${n}`): NewEvent => ({ type, data: { n }, state });

export function eventStoreContract(name: string, target: ContractTarget) {
  describe(`EventStore contract: ${name}`, () => {
    it('given appends to two streams, when read, then each stream is in version order and readAll in append order', () => {
      const { store } = target.make();
      store.append('a', 0, [ev('A1', 1), ev('A2', 2)]);
      store.append('b', 0, [ev('B1', 1)]);
      store.append('a', 2, [ev('A3', 3)]);

      expect(store.readStream('a').map((e) => [e.version, e.type, e.state])).toEqual([
        [1, 'A1', 's1'],
        [2, 'A2', 's2'],
        [3, 'A3', 's3'],
      ]);
      const all = store.readAll();
      expect(all.map((e) => `${e.streamId}:${e.type}`)).toEqual(['a:A1', 'a:A2', 'b:B1', 'a:A3']);
      expect(all.map((e) => e.position)).toEqual([...all.map((e) => e.position)].sort((x, y) => x - y));
      expect(store.readAll({ after: all[1]!.position }).map((e) => e.type)).toEqual(['B1', 'A3']);
      expect(store.readAll({ after: 0, limit: 2 }).map((e) => e.type)).toEqual(['A1', 'A2']);
      expect(store.readStream('a', { fromVersion: 2, toVersion: 2 }).map((e) => e.type)).toEqual(['A2']);
      expect(store.streamVersion('a')).toBe(3);
      expect(store.streamVersion('nope')).toBe(0);
    });

    it('given a stream at version 2, when appending at a stale or future version, then it throws a conflict and writes nothing', () => {
      const { store } = target.make();
      store.append('s', 0, [ev('E1', 1), ev('E2', 2)]);
      for (const expected of [0, 1, 3]) {
        let caught: unknown;
        try {
          store.append('s', expected, [ev('X', 9), ev('Y', 10)]);
        } catch (err) {
          caught = err;
        }
        expect(isBootyError(caught, 'BOOTY_E_VERSION_CONFLICT')).toBe(true);
        expect((caught as Error).message).toContain('is at version 2');
      }
      expect(store.readStream('s').map((e) => e.type)).toEqual(['E1', 'E2']);
      expect(store.readAll().length).toBe(2);
    });

    it('given a failing step inside a transaction, when it throws, then none of its appends remain', () => {
      const { store } = target.make();
      expect(() =>
        store.transaction(() => {
          store.append('t', 0, [ev('T1', 1)]);
          store.append('u', 0, [ev('U1', 1)]);
          throw new Error('boom');
        }),
      ).toThrow('boom');
      expect(store.readAll()).toEqual([]);
    });

    it('given events and a job read model, when the store is reopened, then everything is still there', () => {
      const { store, reopen } = target.make();
      store.append('job-1', 0, [ev('JobRequested', 1, 'preparing')], {
        repo: 'o/r',
        issue: 4,
        state: 'preparing',
        attempts: 0,
        final: false,
        outcome: null,
        tokens: 0,
      });
      store.append('job-1', 1, [ev('Done', 2, 'failed')], {
        state: 'failed',
        attempts: 2,
        final: true,
        outcome: 'tests-failing',
        tokens: 42,
      });
      expect(
        store.recordDelivery({
          deliveryId: 'd1',
          event: 'issues',
          action: 'labeled',
          outcome: 'created',
          jobId: 'job-1',
        }),
      ).toBe(true);
      store.close();

      const again = reopen();
      expect(again.readStream('job-1').map((e) => [e.type, e.state, e.data])).toEqual([
        ['JobRequested', 'preparing', { n: 1 }],
        ['Done', 'failed', { n: 2 }],
      ]);
      expect(again.getJob('job-1')).toMatchObject({
        repo: 'o/r',
        issue: 4,
        state: 'failed',
        attempts: 2,
        final: true,
        outcome: 'tests-failing',
        tokens: 42,
        version: 2,
      });
      expect(
        again.recordDelivery({
          deliveryId: 'd1',
          event: 'issues',
          action: 'labeled',
          outcome: 'created',
          jobId: null,
        }),
      ).toBe(false);
      again.close();
    });

    it('given unfinished and finished jobs, when listed, then only the unfinished count as active for their issue', () => {
      const { store } = target.make();
      const job = (id: string, issue: number, final: boolean) =>
        store.append(id, 0, [ev('JobRequested', 1)], {
          repo: 'o/r',
          issue,
          state: final ? 'promoted' : 'analyzing',
          attempts: 1,
          final,
          outcome: null,
          tokens: 0,
        });
      job('j1', 1, true);
      job('j2', 1, false);
      job('j3', 2, true);
      expect(store.listJobs({ unfinished: true }).map((j) => j.jobId)).toEqual(['j2']);
      expect(
        store
          .listJobs()
          .map((j) => j.jobId)
          .sort(),
      ).toEqual(['j1', 'j2', 'j3']);
      expect(store.findActiveJob('o/r', 1)?.jobId).toBe('j2');
      expect(store.findActiveJob('o/r', 2)).toBeNull();
      expect(
        store
          .listUnreported()
          .map((j) => j.jobId)
          .sort(),
      ).toEqual(['j1', 'j2', 'j3']);
      store.markReported('j1', 1);
      expect(
        store
          .listUnreported()
          .map((j) => j.jobId)
          .sort(),
      ).toEqual(['j2', 'j3']);
    });
  });
}
