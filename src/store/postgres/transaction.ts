import type { Pool, PoolClient } from 'pg';

/** Runs `work` on one connection between BEGIN and COMMIT; anything thrown rolls it all back. */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    // A connection that cannot even roll back is closed, not handed to the next caller.
    await client.query('ROLLBACK').catch((e: Error) => {
      broken = e;
    });
    throw err;
  } finally {
    client.release(broken);
  }
}
