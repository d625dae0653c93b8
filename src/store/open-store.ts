import fs from 'node:fs';
import { BootyError } from '../errors.js';
import { type DbLock, lockDatabase } from './db-lock.js';
import type { EventStore } from './event-store.js';
import { PostgresEventStore } from './postgres/postgres-event-store.js';
import { isPostgresUrl } from './postgres/postgres-url.js';
import { SqliteEventStore } from './sqlite-event-store.js';

// The one place booty opens its event store. A postgres:// URL is the PostgreSQL store (many
// workers on one database); anything else is a SQLite file, the embedded default. A SQLite server
// checkpoints the write-ahead log off the commit path; a command that only reads, or runs one
// job, does not need to. `pg` itself loads only when a PostgreSQL store opens.

export function openStore(location: string, options: { server?: boolean } = {}): EventStore {
  if (isPostgresUrl(location)) return new PostgresEventStore(location);
  return new SqliteEventStore(location, { backgroundCheckpoint: options.server === true });
}

/** A store that exists already, for commands that only read: reading one never creates it. */
export async function openExistingStore(location: string): Promise<EventStore> {
  if (isPostgresUrl(location)) return PostgresEventStore.open(location, { existing: true });
  if (!fs.existsSync(location)) throw new BootyError('BOOTY_E_DB_MISSING', { path: location });
  return new SqliteEventStore(location);
}

/** One writing booty per database: a second waits up to `waitMs` for the first to let go. */
export async function lockStore(location: string, options: { waitMs: number }): Promise<DbLock> {
  if (!isPostgresUrl(location)) return lockDatabase(location, options);
  const { lockPostgres } = await import('./postgres/postgres-lock.js');
  return lockPostgres(location, options);
}
