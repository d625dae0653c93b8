import path from 'node:path';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { loadEnv } from '../../src/env.js';
import { composeBooty } from '../../src/runtime/compose.js';
import { openStore } from '../../src/store/open-store.js';
import { tempDir } from '../support/job-harness.js';

// `pg` is loaded only by a booty that uses PostgreSQL: a SQLite booty, the default, never pays for
// it (the startup benchmark holds an idle serve's memory to a goal).
const loaded = vi.hoisted(() => ({ pg: 0 }));
vi.mock('pg', async (original) => {
  loaded.pg++;
  return original();
});

describe('loading pg', () => {
  it('given a SQLite booty, then composing, booting and closing it loads no pg; a postgres:// store does', async () => {
    const dir = tempDir('booty-loading-');
    const env = loadEnv({ BOOTY_DB: path.join(dir, 'booty.db'), BOOTY_WORKDIR: path.join(dir, 'work') });
    const booty = composeBooty({ env, log: pino({ level: 'silent' }), effects: {}, server: true });
    expect(await booty.supervisor.boot()).toEqual([]);
    await booty.close();
    expect(loaded.pg).toBe(0);

    // A server that is not there: pg loads all the same, to find that out.
    const store = openStore('postgres://booty:secret@127.0.0.1:1/booty');
    await expect(store.listJobs()).rejects.toThrow(
      'cannot open the database postgres://booty:***@127.0.0.1:1/booty',
    );
    await store.close();
    expect(loaded.pg).toBe(1);
  });
});
