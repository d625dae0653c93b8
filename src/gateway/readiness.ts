import type { EventStore } from '../store/event-store.js';

// Ready means this process can take a delivery now: the database takes a write and the config holds.
// The write is a real insert in a transaction that is always rolled back, so it leaves nothing.

export interface ReadinessCheck {
  name: string;
  ok: boolean;
  reason?: string;
}

const rollback = Symbol('rollback');

export function probeDatabase(store: EventStore): ReadinessCheck {
  try {
    store.transaction(() => {
      store.recordDelivery({
        deliveryId: 'booty-readyz-probe',
        event: 'readyz',
        action: null,
        outcome: 'probe',
        jobId: null,
      });
      throw rollback;
    });
    return { name: 'database', ok: false, reason: 'the probe transaction did not roll back' };
  } catch (err) {
    if (err === rollback) return { name: 'database', ok: true };
    return { name: 'database', ok: false, reason: `not writable: ${(err as Error).message}` };
  }
}

export function probe(name: string, check: () => void): ReadinessCheck {
  try {
    check();
    return { name, ok: true };
  } catch (err) {
    return { name, ok: false, reason: (err as Error).message };
  }
}
