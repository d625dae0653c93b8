import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteEventStore } from '../../../src/store/sqlite/sqlite-event-store.js';
import { startCheckpointer } from '../../../src/store/sqlite/wal-checkpointer.js';
import { sleep } from '../../support/until.js';

describe('the background checkpointer', () => {
  // Its worker opens the file a moment after the store; a file deleted in between must stay
  // deleted, or the store's "deleted under it" check sees a fresh empty database instead.
  it('never creates the database file it checkpoints, and hands checkpoints back when it cannot open it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'booty-checkpointer-'));
    const file = path.join(dir, 'gone.db');
    try {
      const handedBack = await new Promise<boolean>((resolve) => {
        startCheckpointer(file, { intervalMs: 10, onExit: () => resolve(true) });
      });
      expect(handedBack).toBe(true);
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  // A copy made, or a process started, right after close must find the file whole and alone: the
  // checkpointer's connection closed first, so the store's, the last, folds the log in and removes it.
  it('given a store with a checkpointer and events in its log, once closed, then the file is alone and holds them', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'booty-checkpointer-'));
    const file = path.join(dir, 'booty.db');
    try {
      const store = new SqliteEventStore(file, { backgroundCheckpoint: true });
      for (let i = 0; i < 20; i++)
        await store.append(`job-${i}`, 0, [{ type: 'T', data: { i }, state: 's' }]);
      expect(fs.readdirSync(dir).sort()).toEqual(['booty.db', 'booty.db-shm', 'booty.db-wal']);
      await sleep(500); // the checkpointer's worker has opened its connection (a moment after the store)
      await store.close();
      expect(fs.readdirSync(dir)).toEqual(['booty.db']);
      const copy = path.join(dir, 'copy.db');
      fs.copyFileSync(file, copy);
      const reopened = new SqliteEventStore(copy);
      expect((await reopened.readAll()).length).toBe(20);
      await reopened.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
