import type { EventStore } from '../store/event-store.js';

// Ready means this process can take a delivery now: the database takes a write and the config holds.
// The database check takes the write lock and lets it go, so it leaves nothing behind.

export interface ReadinessCheck {
  name: string;
  ok: boolean;
  reason?: string;
}

export const probeDatabase = (store: EventStore): ReadinessCheck =>
  probe('database', () => {
    try {
      store.probeWritable();
    } catch (err) {
      throw new Error(`not writable: ${(err as Error).message}`);
    }
  });

export function probe(name: string, check: () => void): ReadinessCheck {
  try {
    check();
    return { name, ok: true };
  } catch (err) {
    return { name, ok: false, reason: (err as Error).message };
  }
}
