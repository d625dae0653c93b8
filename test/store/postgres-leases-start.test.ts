import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../src/env.js';
import { startBooty } from '../../src/main/serve.js';
import { PostgresEventStore } from '../../src/store/postgres/postgres-event-store.js';
import { captureLog, SECRET } from '../gateway/gateway-harness.js';
import { tempDir } from '../support/job-harness.js';
import { freshDatabase, onDatabase } from '../support/postgres-database.js';
import { scriptedEffects } from '../support/scripted-effects.js';

// A worker whose job queue cannot start would take deliveries, append their jobs and run none of
// them, looking healthy all the while. It does not start, and says why and what to grant.

describe('a worker whose job queue cannot start', () => {
  it('given a database user who may use booty’s tables but not create the queue’s schema, then serve does not start, naming the fix', async () => {
    const url = await freshDatabase();
    await (await PostgresEventStore.open(url)).close();
    const role = `booty_worker_${randomBytes(4).toString('hex')}`;
    await onDatabase(url, async (c) => {
      await c.query(`CREATE ROLE ${role} LOGIN PASSWORD 'worker'`);
      await c.query(`GRANT USAGE ON SCHEMA public TO ${role}`);
      await c.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}`);
      await c.query(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO ${role}`);
      await c.query(`GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO ${role}`);
    });
    const asWorker = new URL(url);
    asWorker.username = role;
    asWorker.password = 'worker';
    const dir = tempDir('booty-leases-start-');
    const env = loadEnv({
      HOST: '127.0.0.1',
      PORT: '0',
      GITHUB_WEBHOOK_SECRET: SECRET,
      BOOTY_DATABASE_URL: asWorker.href,
      BOOTY_WORKDIR: path.join(dir, 'work'),
    });

    const err = await startBooty({ env, effects: scriptedEffects().impls, log: captureLog().log }).then(
      () => null,
      (e: unknown) => e as { code?: string; message: string },
    );

    expect(err?.code).toBe('BOOTY_E_LEASES_UNAVAILABLE');
    expect(err?.message).toMatch(
      /^cannot start the job queue \(pg-boss, in schema pgboss\) on the database /,
    );
    expect(err?.message).toContain('permission denied for database');
    expect(err?.message).toContain('needs CREATE on the database');
    expect(err?.message).not.toContain(':worker@');
  });
});
