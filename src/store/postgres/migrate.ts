import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Pool, PoolClient } from 'pg';
import { BootyError } from '../../errors.js';
import { inTransaction } from './transaction.js';

// Schema migrations for the PostgreSQL store, applied in order, each once, in one transaction
// with the record of it in schema_migrations. A file per migration under migrations/, plain SQL
// named `NNN-name.sql`: NNN is its version, and `NNN-name` the name recorded. The build copies the
// files beside the compiled code (package.json), and they are found from this module, not the
// working directory. Never edit a released migration: add a new one.

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const folder = new URL('./migrations/', import.meta.url);

/** Every migration, in version order: versions 1, 2, 3… with none missing or repeated. */
export async function readMigrations(): Promise<Migration[]> {
  const files = await readdir(folder).catch(() => []);
  const found = files
    .map((file) => /^((\d+)-[a-z0-9-]+)\.sql$/.exec(file))
    .filter((m) => m !== null)
    .map((m) => ({ file: m[0], name: m[1]!, version: Number(m[2]) }))
    .sort((a, b) => a.version - b.version);
  // A build that left the files behind, or a file lost or numbered twice, would otherwise skip a
  // migration unseen (or find the schema current with none at all).
  if (found.length === 0 || found.some((m, i) => m.version !== i + 1)) {
    throw new Error(
      `booty's schema migrations in ${fileURLToPath(folder)} are missing or out of sequence: ${
        found.map((m) => m.file).join(', ') || 'none'
      }`,
    );
  }
  return Promise.all(
    found.map(async ({ file, name, version }) => ({
      version,
      name,
      sql: await readFile(new URL(file, folder), 'utf8'),
    })),
  );
}

// pg_advisory_xact_lock's key for "migrating booty's schema": booty's stores starting at once on
// one database (a fleet of workers) take turns here, and all but the first find nothing to do.
const MIGRATION_LOCK = 0x626f6f74; // "boot"

/**
 * Brings the schema to this build's version. A schema a newer booty migrated is refused
 * (BOOTY_E_SCHEMA_NEWER): this build would write rows that release's readers, or read rows its own
 * readers, do not expect (README: Operations, upgrades).
 */
export async function migrate(pool: Pool, path: string): Promise<void> {
  const migrations = await readMigrations();
  const pending = (done: Set<number>) => migrations.filter((m) => !done.has(m.version));
  const done = await applied(pool);
  const newest = Math.max(0, ...done);
  if (newest > migrations.length)
    throw new BootyError('BOOTY_E_SCHEMA_NEWER', {
      path,
      what: 'schema',
      found: newest,
      known: migrations.length,
    });
  // Current already, as at most starts: nothing is locked or written, so a read-only server opens.
  if (pending(done).length === 0) return;
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

async function applied(db: Pool | PoolClient): Promise<Set<number>> {
  const { rows } = await db.query<{ t: string | null }>("SELECT to_regclass('schema_migrations') AS t");
  if (rows[0]!.t === null) return new Set();
  const versions = await db.query<{ version: number }>('SELECT version FROM schema_migrations');
  return new Set(versions.rows.map((r) => r.version));
}
