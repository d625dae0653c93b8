import type { EventStore } from '../store/event-store.js';

// Ready means this process can take a delivery now: the database takes a write and the config holds.
// The database check takes the write lock and lets it go, so it leaves nothing behind.

export interface ReadinessCheck {
  name: string;
  ok: boolean;
  reason?: string;
}

export const probeDatabase = (store: EventStore): Promise<ReadinessCheck> =>
  probe('database', async () => {
    try {
      await store.probeWritable();
    } catch (err) {
      throw new Error(`not writable: ${(err as Error).message}`);
    }
  });

export async function probe(name: string, check: () => unknown): Promise<ReadinessCheck> {
  try {
    await check();
    return { name, ok: true };
  } catch (err) {
    return { name, ok: false, reason: (err as Error).message };
  }
}
