import { describe, expect, it } from 'vitest';
import { connect } from '../../src/store/postgres/postgres-pool.js';
import { inTransaction } from '../../src/store/postgres/transaction.js';
import { StoreHealth } from '../../src/store/store-health.js';
import { freshDatabase, onDatabase } from '../support/postgres-database.js';

// A connection the server ends while a transaction holds it (a restart, a failover, an operator's
// pg_terminate_backend) fails that transaction as a store fault. Before the fix its unheard 'error'
// event was an uncaught exception: CI saw it end a test run from the store-health test.

describe('a transaction on PostgreSQL', () => {
  it('given its connection is ended by the server mid-transaction, then it fails with the termination and the pool serves the next query', async () => {
    const url = await freshDatabase();
    const pool = await connect(url, {});
    const err = await inTransaction(pool, async (client) => {
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const ended = new Promise((ended) => client.once('end', ended));
      await onDatabase(url, (c) => c.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]));
      await ended;
      await client.query('SELECT 1');
    }).catch((e: unknown) => e);

    expect((err as Error).message).toMatch(/^Connection terminated|terminating connection/);
    // So booty pauses its jobs until a probe commits, as for any store fault.
    expect(new StoreHealth({ store: { probeWritable: async () => {} } }).failed(err)).toBe(true);
    expect(pool.totalCount).toBe(0);
    const { rows } = await pool.query<{ one: number }>('SELECT 1 AS one');
    expect(rows).toEqual([{ one: 1 }]);
    await pool.end();
  });
});
