import { describe, expect, it } from 'vitest';
import { PostgresEventStore } from '../../src/store/postgres/postgres-event-store.js';
import { StoreHealth, type StoreState } from '../../src/store/store-health.js';
import { freshDatabase, onDatabase } from '../support/postgres-database.js';

// A PostgreSQL server that stops taking writes pauses booty as a full disk does with SQLite: the
// store is failing until a probe write commits, then ok again, with no restart.

describe('store health on PostgreSQL', () => {
  it('given the database turns read-only, then the store is failing, and ok again once a probe commits', async () => {
    const url = await freshDatabase();
    const name = new URL(url).pathname.slice(1);
    await (await PostgresEventStore.open(url)).close();
    // A database setting reaches the sessions that start after it: the store's are ended.
    const readOnly = (on: boolean) =>
      onDatabase(url, async (c) => {
        await c.query('SET default_transaction_read_only = off');
        await c.query(`ALTER DATABASE ${name} SET default_transaction_read_only = ${on}`);
        await c.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name],
        );
      });
    await readOnly(true);
    const store = await PostgresEventStore.open(url);
    const states: StoreState[] = [];
    const health = new StoreHealth({ store, onChange: (state) => states.push(state) });

    const err = await store.append('s', 0, [{ type: 'E', data: {} }]).catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe('25006');
    expect(health.failed(err)).toBe(true);
    await health.check();
    expect(health.ok).toBe(false);

    await readOnly(false);
    // The pool may hand the probe a connection that was just ended before it notices: each try
    // that meets one leaves the store failing, and the next gets a new connection.
    for (let tries = 0; tries < 5 && !health.ok; tries++) await health.check();
    expect(health.ok).toBe(true);
    expect(states).toEqual(['failing', 'ok']);
    expect(await store.append('s', 0, [{ type: 'E', data: {} }])).toMatchObject({ version: 1 });
    await store.close();
  });
});
