import type { Pool, PoolClient } from 'pg';

/** Runs `work` on one connection between BEGIN and COMMIT; anything thrown rolls it all back. */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A checked-out client has no pool listener: a connection the server ends under it (a restart,
  // a failover, pg_terminate_backend) would raise an unheard 'error' and end the process. Heard,
  // it is the transaction's error (a store fault), not the later "not queryable" of the next query.
  let lost: Error | undefined;
  const onError = (err: Error) => {
    lost ??= err;
  };
  client.on('error', onError);
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
    throw lost ?? err;
  } finally {
    client.removeListener('error', onError);
    client.release(lost ?? broken);
  }
}
