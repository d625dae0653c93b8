import type { Pool } from 'pg';
import init from './migrations/001-init.js';
import { inTransaction } from './transaction.js';

// Schema migrations for the PostgreSQL store, applied in order, each once, in one transaction
// with the record of it in schema_migrations. A file per migration under migrations/, as SQL in
// a string so it ships in the compiled package. Never edit a released migration: add a new one.

export const migrations = [{ version: 1, name: '001-init', sql: init }];

// pg_advisory_xact_lock's key for "migrating booty's schema": booty's stores starting at once on
// one database (a fleet of workers) take turns here, and all but the first find nothing to do.
const MIGRATION_LOCK = 0x626f6f74; // "boot"

export async function migrate(pool: Pool): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((r) => r.version));
    for (const m of migrations) {
      if (applied.has(m.version)) continue;
      await client.query(m.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        m.version,
        m.name,
      ]);
    }
  });
}
