import fs from 'node:fs';
import { BootyError } from '../errors.js';
import type { EventStore } from '../store/event-store.js';
import type { LeaseSettings } from '../store/job-leases.js';
import { PostgresEventStore } from '../store/postgres/postgres-event-store.js';
import { isPostgresUrl } from '../store/postgres/postgres-url.js';
import { type DbLock, lockDatabase } from '../store/sqlite/db-lock.js';
import { SqliteEventStore } from '../store/sqlite/sqlite-event-store.js';
import { assertWritable } from '../store/write-guard.js';

// The one place booty opens its event store. A postgres:// URL is the PostgreSQL store (many
// workers on one database); anything else is a SQLite file, the embedded default. A SQLite server
// checkpoints the write-ahead log off the commit path; a command that only reads, or runs one
// job, does not need to. A SQLite server does not start on files that refuse writes
// (write-guard.ts). A PostgreSQL server leases its jobs to every serve on the database. `pg` and
// pg-boss load only when a PostgreSQL store opens.

/** Leases when `serve` does not say: a killed worker's jobs move on within about half a minute. */
export const DEFAULT_LEASES: LeaseSettings = { seconds: 30, pollMs: 1_000 };

export function openStore(
  location: string,
  options: { server?: boolean; leases?: LeaseSettings } = {},
): EventStore {
  if (isPostgresUrl(location)) {
    return new PostgresEventStore(
      location,
      options.server ? { leases: options.leases ?? DEFAULT_LEASES } : {},
    );
  }
  if (options.server) assertWritable(location);
  return new SqliteEventStore(location, { backgroundCheckpoint: options.server === true });
}

/** A store that exists already, for commands that only read: reading one never creates it. */
export async function openExistingStore(location: string): Promise<EventStore> {
  if (isPostgresUrl(location)) return PostgresEventStore.open(location, { existing: true });
  if (!fs.existsSync(location)) throw new BootyError('BOOTY_E_DB_MISSING', { path: location });
  return new SqliteEventStore(location);
}

/**
 * One writing booty per SQLite file: a second waits up to `waitMs` for the first to let go. Any
 * number of serves share a PostgreSQL database, each job leased to one of them at a time.
 */
export async function lockStore(location: string, options: { waitMs: number }): Promise<DbLock> {
  if (isPostgresUrl(location)) return { release() {} };
  return lockDatabase(location, options);
}
