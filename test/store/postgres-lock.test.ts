import os from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import { isBootyError } from '../../src/errors.js';
import { lockStore } from '../../src/store/open-store.js';
import { freshDatabase, onDatabase } from '../support/postgres-database.js';

// Until workers lease jobs, one `booty serve` writes to a PostgreSQL database at a time, as with
// SQLite: the lock is an advisory lock held on a connection of its own.

let database: string;
beforeAll(async () => {
  database = await freshDatabase();
});

describe('the PostgreSQL serve lock', () => {
  it('given a booty holding the database, then a second waits, fails naming the holder, and takes it once released', async () => {
    const first = await lockStore(database, { waitMs: 0 });
    const err = (await lockStore(database, { waitMs: 300 }).catch((e: unknown) => e)) as Error;
    expect(isBootyError(err, 'BOOTY_E_DB_LOCKED')).toBe(true);
    // The holder's pid and host, as far as application_name's 63 characters carry them.
    expect(err.message).toContain(`another booty (pid ${`${process.pid} on ${os.hostname()}`.slice(0, 57)}`);
    expect(err.message).toContain(') holds the database postgres://postgres:***@127.0.0.1:');
    const waiting = lockStore(database, { waitMs: 10_000 });
    first.release();
    (await waiting).release();
  });

  it('given a holder whose connection died (a killed process), then the next booty takes the lock', async () => {
    // The last test's release ends its connection without waiting for it: the lock may take a moment.
    await lockStore(database, { waitMs: 5_000 });
    // What the server sees of a SIGKILLed holder: its connection gone.
    await onDatabase(database, (c) =>
      c.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND application_name LIKE 'booty %'`,
      ),
    );
    const next = await lockStore(database, { waitMs: 5_000 });
    next.release();
  });
});
