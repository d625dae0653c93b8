import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import { StoreHealth, type StoreState } from '../../src/store/store-health.js';
import { tempDir } from '../support/job-harness.js';

// A write that fails because the database file was deleted under booty is the file's loss, not a
// passing fault: the store is lost at once, whichever notices first, the write or the interval.
// Files that refuse writes (made immutable here, as root) are a passing fault, as a full disk is.

describe('store health on SQLite', () => {
  it('given the file is deleted, then a write that fails on it makes the store lost, not failing', async () => {
    const db = path.join(tempDir(), 'booty.db');
    const store = new SqliteEventStore(db);
    const states: StoreState[] = [];
    const health = new StoreHealth({ store, file: db, onChange: (state) => states.push(state) });
    try {
      fs.rmSync(db);
      // What a write meets once SQLite notices its file is gone (it may also go on writing to the
      // unlinked file for a while: then the interval's look finds the loss).
      const err = Object.assign(new Error('attempt to write a readonly database'), {
        code: 'SQLITE_READONLY_DBMOVED',
      });
      expect(health.failed(err)).toBe(true);
      expect(states).toEqual(['lost']);
      expect(health.error().code).toBe('BOOTY_E_STORE_LOST');
      expect(health.error().message).toContain('was deleted while booty was using it');
    } finally {
      await store.close();
    }
  });

  it('given the files are made immutable, then every call is refused as a fault, and writes go on once they are not', async () => {
    const db = path.join(tempDir(), 'booty.db');
    const files = [db, `${db}-wal`, `${db}-shm`];
    const store = new SqliteEventStore(db);
    const states: StoreState[] = [];
    const health = new StoreHealth({ store, file: db, onChange: (state) => states.push(state) });
    const event = { type: 'Noted', data: {} };
    try {
      await store.append('s', 0, [event]);
      execFileSync('chattr', ['+i', ...files]);
      // The index is flushed, so a write through its mapping would fault (SIGBUS) were it tried.
      execFileSync('sync', [`${db}-shm`]);
      const refused = await store.append('s', 1, [event]).catch((err: unknown) => err);
      expect(refused).toMatchObject({
        code: 'BOOTY_E_STORE_READONLY',
        params: { path: `${db}-shm`, code: 'EPERM' },
      });
      // A read writes the index too.
      await expect(store.readStream('s')).rejects.toMatchObject({
        code: 'BOOTY_E_STORE_READONLY',
        params: { path: `${db}-shm`, code: 'EPERM' },
      });
      expect(health.failed(refused)).toBe(true);
      await health.check();
      expect(states).toEqual(['failing']);
      expect(health.error().message).toContain(`the database file ${db}-shm refuses writes (EPERM`);

      execFileSync('chattr', ['-i', ...files]);
      await health.check();
      expect(states).toEqual(['failing', 'ok']);
      expect(await store.append('s', 1, [event])).toMatchObject({ version: 2 });
      expect((await store.readStream('s')).map((e) => e.version)).toEqual([1, 2]);
    } finally {
      execFileSync('chattr', ['-i', ...files]);
      await store.close();
    }
  });

  it('given only the database and its -wal are made immutable, then an append is refused by SQLite as a fault, nothing is written, and writes go on once they are not', async () => {
    const db = path.join(tempDir(), 'booty.db');
    const files = [db, `${db}-wal`];
    const store = new SqliteEventStore(db);
    const health = new StoreHealth({ store, file: db });
    const event = { type: 'Noted', data: {} };
    try {
      await store.append('s', 0, [event]);
      execFileSync('chattr', ['+i', ...files]);
      const refused = await store.append('s', 1, [event]).catch((err: unknown) => err);
      expect((refused as { code?: string }).code).toMatch(/^SQLITE_(IOERR|READONLY)/);
      expect(health.failed(refused)).toBe(true);
      expect((await store.readStream('s')).map((e) => e.version)).toEqual([1]);

      execFileSync('chattr', ['-i', ...files]);
      expect(await store.append('s', 1, [event])).toMatchObject({ version: 2 });
      expect((await store.readStream('s')).map((e) => e.version)).toEqual([1, 2]);
    } finally {
      execFileSync('chattr', ['-i', ...files]);
      await store.close();
    }
  });
});
