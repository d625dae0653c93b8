import { SqliteEventStore } from './sqlite-event-store.js';

// The one place booty opens its event store. A server checkpoints the write-ahead log off the
// commit path; a command that only reads, or runs one job, does not need to.

export function openStore(file: string, options: { server?: boolean } = {}): SqliteEventStore {
  return new SqliteEventStore(file, { backgroundCheckpoint: options.server === true });
}
