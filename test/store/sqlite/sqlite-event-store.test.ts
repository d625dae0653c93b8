import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../../src/store/sqlite/migrations.js';
import { SqliteEventStore } from '../../../src/store/sqlite/sqlite-event-store.js';
import { compiled } from '../../support/compiled.js';
import { tempDir } from '../../support/job-harness.js';
import { deliveryLogContract } from '../delivery-log-contract.js';
import { eventLogContract } from '../event-log-contract.js';
import { jobIndexContract } from '../job-index-contract.js';

const run = promisify(execFile);

// The store is the log, the jobs read model and the delivery log at once: each contract runs on it.
const sqlite = {
  make() {
    const file = path.join(tempDir(), 'contract.db');
    return { store: new SqliteEventStore(file), reopen: () => new SqliteEventStore(file) };
  },
};
eventLogContract('SQLite', sqlite);
jobIndexContract('SQLite', sqlite);
deliveryLogContract('SQLite', sqlite);

describe('SqliteEventStore', () => {
  it('opens in WAL mode with every migration applied', () => {
    const file = path.join(tempDir(), 'wal.db');
    new SqliteEventStore(file).close();
    const db = new Database(file, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    db.close();
  });

  it('names the path when the database cannot be opened', () => {
    const dir = tempDir();
    expect(() => new SqliteEventStore(dir)).toThrow(/BOOTY_E_DB_OPEN|cannot open the database/);
  });

  it('given two processes appending to one database, then every event lands once with no gaps', async () => {
    const file = path.join(tempDir(), 'shared.db');
    new SqliteEventStore(file).close();
    const writer = compiled('test/store/fixtures/append-writer.ts');
    const count = 200;
    await Promise.all(['p1', 'p2'].map((id) => run(process.execPath, [writer, file, id, String(count)])));
    const store = new SqliteEventStore(file);
    const shared = await store.readStream('shared');
    expect(shared.length).toBe(2 * count);
    expect(shared.map((e) => e.version)).toEqual(Array.from({ length: 2 * count }, (_, i) => i + 1));
    const byWriter = (w: string) => shared.filter((e) => e.data.writer === w).map((e) => e.data.i);
    expect(byWriter('p1')).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(byWriter('p2')).toEqual(Array.from({ length: count }, (_, i) => i));
    expect((await store.readStream('own-p1')).length).toBe(count);
    expect((await store.readStream('own-p2')).length).toBe(count);
    await store.close();
  });

  it('with a background checkpointer, folds the write-ahead log into the database off the commit path', async () => {
    const file = path.join(tempDir(), 'ckpt.db');
    const store = new SqliteEventStore(file, { backgroundCheckpoint: true });
    const raw = new Database(file, { readonly: true });
    expect(raw.pragma('wal_autocheckpoint', { simple: true })).toBe(1000); // a fresh connection's own
    const before = fs.statSync(file).size;
    const big = 'x'.repeat(4000);
    for (let i = 0; i < 500; i++) await store.append(`s${i}`, 0, [{ type: 'Big', data: { big } }]);
    // The store's own connection never checkpoints; the worker's passive checkpoints grow the file.
    const deadline = Date.now() + 10_000;
    while (fs.statSync(file).size <= before + 1_000_000 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(fs.statSync(file).size).toBeGreaterThan(before + 1_000_000);
    raw.close();
    await store.close();
    expect((await new SqliteEventStore(file).readStream('s499'))[0]!.data).toEqual({ big });
  });

  it('with a background checkpointer, starts its thread only with the first append (an idle store holds none)', async () => {
    const threads = () => fs.readdirSync('/proc/self/task').length;
    const before = threads();
    const store = new SqliteEventStore(path.join(tempDir(), 'idle.db'), { backgroundCheckpoint: true });
    await new Promise((r) => setTimeout(r, 300));
    expect(threads()).toBe(before);
    await store.append('s', 0, [{ type: 'X', data: {} }]);
    const deadline = Date.now() + 10_000;
    while (threads() === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(threads()).toBeGreaterThan(before);
    await store.close();
  });

  it('with a background checkpointer, starts its thread with the first delivery recorded too, so deliveries that start nothing commit without SQLite checkpointing inline', async () => {
    const threads = () => fs.readdirSync('/proc/self/task').length;
    const before = threads();
    const store = new SqliteEventStore(path.join(tempDir(), 'deliveries.db'), { backgroundCheckpoint: true });
    const inline = () => store.connection().pragma('wal_autocheckpoint', { simple: true });
    expect(inline()).toBe(1000);
    await store.recordDeliveries([
      { deliveryId: 'd-1', event: 'Issue Hook', action: 'update', outcome: 'ignored', jobId: null },
    ]);
    expect(inline()).toBe(0);
    const deadline = Date.now() + 10_000;
    while (threads() === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(threads()).toBeGreaterThan(before);
    await store.close();
  });

  it('given another writer moved a stream on since this store last appended to it, then an append at the version it remembers conflicts, and one at the new version lands with no gap', async () => {
    const file = path.join(tempDir(), 'two-writers.db');
    const a = new SqliteEventStore(file);
    const b = new SqliteEventStore(file);
    const event = { type: 'Noted', data: {} };
    try {
      await a.append('s', 0, [event]);
      await b.append('s', 1, [event]);
      await expect(a.append('s', 1, [event])).rejects.toMatchObject({
        code: 'BOOTY_E_VERSION_CONFLICT',
        params: { streamId: 's', expected: 1, actual: 2 },
      });
      // Too far ahead: no version 4 lands after 2.
      await expect(a.append('s', 3, [event])).rejects.toMatchObject({ code: 'BOOTY_E_VERSION_CONFLICT' });
      expect(await a.append('s', 2, [event])).toMatchObject({ version: 3 });
      expect((await b.readStream('s')).map((e) => e.version)).toEqual([1, 2, 3]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('stamps every event with the current schema version', async () => {
    const store = new SqliteEventStore(path.join(tempDir(), 'v.db'));
    await store.append('s', 0, [{ type: 'X', data: {} }]);
    expect((await store.readStream('s'))[0]!.schemaVersion).toBe(1);
    await store.close();
  });
});
