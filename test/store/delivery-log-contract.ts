import { describe, expect, it } from 'vitest';
import type { DeliveryLog } from '../../src/store/delivery-log.js';
import type { EventLog } from '../../src/store/event-log.js';
import { type Closable, delivery, ev, jobAt, type StoreMaker } from './contract-target.js';

// The contract every DeliveryLog keeps: a delivery is recorded once, whether by an append it
// caused (EventLog.append's `delivery`) or on its own; the ids never recorded are found among
// GitHub's; and the catch-up's turn is taken once per gap, its mark never moving back.

export type DeliveriesUnderTest = DeliveryLog & Pick<EventLog, 'append'> & Closable;

export function deliveryLogContract(name: string, target: StoreMaker<DeliveriesUnderTest>) {
  describe(`DeliveryLog contract: ${name}`, () => {
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

    it('given a recorded delivery, when the store is reopened, then it is still known', async () => {
      const { store, reopen } = await target.make();
      expect(await store.recordDeliveries([delivery('d1', 'job-1')])).toEqual([true]);
      await store.close();

      const again = await reopen();
      expect(await again.unknownDeliveries(['d1', 'd2'])).toEqual(['d2']);
      expect(await again.recordDeliveries([delivery('d1')])).toEqual([false]);
      await again.close();
    });

    it('given a closed store, then its calls reject rather than answer', async () => {
      const { store } = await target.make();
      await store.close();
      await expect(store.recordDeliveries([delivery('z')])).rejects.toThrow();
      await expect(store.unknownDeliveries(['z'])).rejects.toThrow();
    });
  });
}
