import path from 'node:path';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { loadEnv } from '../../src/env.js';
import { composeBooty } from '../../src/main/compose.js';
import { openStore } from '../../src/main/open-store.js';
import { tempDir } from '../support/job-harness.js';

// `pg` and pg-boss are loaded only by a booty that uses PostgreSQL (pg-boss by a serve's store,
// which leases jobs): a SQLite booty, the default, never pays for them (the startup benchmark
// holds an idle serve's memory to a goal).
const loaded = vi.hoisted(() => ({ pg: 0, pgBoss: 0 }));
vi.mock('pg', async (original) => {
  loaded.pg++;
  return original();
});
vi.mock('pg-boss', async (original) => {
  loaded.pgBoss++;
  return original();
});

describe('loading pg', () => {
  it("given a SQLite booty, then composing, booting and closing it loads no pg nor pg-boss; a postgres:// store does, and a serve's pg-boss too", async () => {
    const dir = tempDir('booty-loading-');
    const env = loadEnv({ BOOTY_DB: path.join(dir, 'booty.db'), BOOTY_WORKDIR: path.join(dir, 'work') });
    const booty = await composeBooty({ env, log: pino({ level: 'silent' }), effects: {}, server: true });
    expect(await booty.supervisor.boot()).toEqual([]);
    await booty.close();
    expect(loaded).toEqual({ pg: 0, pgBoss: 0 });

    // A server that is not there: pg loads all the same, to find that out.
    const store = openStore('postgres://booty:secret@127.0.0.1:1/booty');
    await expect(store.listJobs()).rejects.toThrow(
      'cannot open the database postgres://booty:***@127.0.0.1:1/booty',
    );
    await store.close();
    expect(loaded).toEqual({ pg: 1, pgBoss: 0 });

    const served = openStore('postgres://booty:secret@127.0.0.1:1/booty', { server: true });
    expect(served.leases).toBeDefined();
    await expect(served.leases!.take(1)).rejects.toThrow('ECONNREFUSED');
    await served.close();
    expect(loaded.pgBoss).toBe(1);
  });
});
