import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteEventStore } from '../../src/store/sqlite-event-store.js';
import { StoreHealth, type StoreState } from '../../src/store/store-health.js';
import { tempDir } from '../support/job-harness.js';

// A write that fails because the database file was deleted under booty is the file's loss, not a
// passing fault: the store is lost at once, whichever notices first, the write or the interval.

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
});
