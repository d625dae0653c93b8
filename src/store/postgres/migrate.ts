import type { Pool, PoolClient } from 'pg';
import init from './migrations/001-init.js';
import oneJobPerIssue from './migrations/002-one-job-per-issue.js';
import deliveryLook from './migrations/003-delivery-look.js';
import { inTransaction } from './transaction.js';

// Schema migrations for the PostgreSQL store, applied in order, each once, in one transaction
// with the record of it in schema_migrations. A file per migration under migrations/, as SQL in
// a string so it ships in the compiled package. Never edit a released migration: add a new one.

export const migrations = [
  { version: 1, name: '001-init', sql: init },
  { version: 2, name: '002-one-job-per-issue', sql: oneJobPerIssue },
  { version: 3, name: '003-delivery-look', sql: deliveryLook },
];

// pg_advisory_xact_lock's key for "migrating booty's schema": booty's stores starting at once on
// one database (a fleet of workers) take turns here, and all but the first find nothing to do.
const MIGRATION_LOCK = 0x626f6f74; // "boot"

export async function migrate(pool: Pool): Promise<void> {
  // Current already, as at most starts: nothing is locked or written, so a read-only server opens.
  if (pending(await applied(pool)).length === 0) return;
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now())`);
    for (const m of pending(await applied(client))) {
      await client.query(m.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        m.version,
        m.name,
      ]);
    }
  });
}

const pending = (done: Set<number>) => migrations.filter((m) => !done.has(m.version));

async function applied(db: Pool | PoolClient): Promise<Set<number>> {
  const { rows } = await db.query<{ t: string | null }>("SELECT to_regclass('schema_migrations') AS t");
  if (rows[0]!.t === null) return new Set();
  const versions = await db.query<{ version: number }>('SELECT version FROM schema_migrations');
  return new Set(versions.rows.map((r) => r.version));
}
