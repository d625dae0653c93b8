import type { StoreHealth } from '../store/store-health.js';

// Ready means this process can take a delivery now: the database takes a write and the config holds.
// The database check is the store health's probe: a write the size of a large event, undone.

export interface ReadinessCheck {
  name: string;
  ok: boolean;
  reason?: string;
}

/** The database, probed now: its health says why it takes no writes, when it does not. */
export async function databaseReady(health: StoreHealth): Promise<ReadinessCheck> {
  await health.check();
  return health.ok
    ? { name: 'database', ok: true }
    : { name: 'database', ok: false, reason: health.error().message };
}

export async function probe(name: string, check: () => unknown): Promise<ReadinessCheck> {
  try {
    await check();
    return { name, ok: true };
  } catch (err) {
    return { name, ok: false, reason: (err as Error).message };
  }
}
