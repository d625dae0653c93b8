import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../src/env.js';
import { startBooty } from '../../src/main/serve.js';
import { captureLog, deliver, labelPayload, SECRET } from '../gateway/gateway-harness.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/job-harness.js';
import { freshDatabase, onDatabase } from '../support/postgres-database.js';
import { scriptedEffects } from '../support/scripted-effects.js';

// compose.yaml's least privilege: `booty migrate` makes the schemas as the database's owner, and
// the workers connect as the role deploy/postgres/worker-role.sql makes, which may use booty's
// tables and the queue's and change no schema. The password stays out of the URL.

const sql = fs.readFileSync(
  path.resolve(import.meta.dirname, '../../deploy/postgres/worker-role.sql'),
  'utf8',
);

/** The script as psql runs it with `-v worker=… -v password=…`: its variables put in, quoted. */
const asPsql = (worker: string, password: string) =>
  sql.replaceAll(':"worker"', `"${worker}"`).replaceAll(":'password'", `'${password}'`);

describe('the workers’ role', () => {
  it('given the role and booty migrate as the owner, then a worker runs a job as the role and cannot change the schema', async () => {
    const owner = await freshDatabase();
    const role = `booty_worker_${randomBytes(4).toString('hex')}`;
    const password = randomBytes(12).toString('hex');
    await onDatabase(owner, (c) => c.query(asPsql(role, password)));
    const worker = new URL(owner);
    worker.username = role;
    worker.password = '';

    // Before the migration job, the role can make neither booty's tables nor the queue's: no start.
    const dir = tempDir('booty-worker-role-');
    const env = loadEnv({
      HOST: '127.0.0.1',
      PORT: '0',
      GITHUB_WEBHOOK_SECRET: SECRET,
      BOOTY_DATABASE_URL: worker.href,
      BOOTY_DATABASE_PASSWORD: password,
      BOOTY_WORKDIR: path.join(dir, 'work'),
    });
    const { log } = captureLog();
    const early = await startBooty({ env, effects: scriptedEffects().impls, log }).then(
      (b) => b.close().then(() => null),
      (e: unknown) => e as { code?: string; message: string },
    );
    // booty's migrations and the queue's schema start at once: whichever is refused first says so.
    expect(['BOOTY_E_DB_OPEN', 'BOOTY_E_LEASES_UNAVAILABLE']).toContain(early?.code);
    expect(early?.message).toContain('permission denied');

    const migrated = await cli(['migrate', '--db', owner]);
    expect([migrated.code, migrated.out]).toEqual([
      0,
      `${new URL(owner).href.replace(/:[^:@/]*@/, ':***@')}: booty's schema and the job queue are current`,
    ]);

    const booty = await startBooty({ env, effects: scriptedEffects().impls, log });
    try {
      const r = await deliver(booty.server.url, { payload: labelPayload('labeled', { issue: 9 }) });
      expect(r.status).toBe(202);
      for (let i = 0; (await booty.store.getJob(r.body.jobId))?.state !== 'promoted'; i++) {
        if (i > 200) throw new Error('the job did not reach promoted in 10 s');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await booty.close();
    }

    const asWorker = new URL(worker.href);
    asWorker.password = password;
    const refused = async (statement: string) =>
      onDatabase(asWorker.href, (c) => c.query(statement)).then(
        () => 'allowed',
        (e: Error) => e.message,
      );
    expect(await refused('CREATE TABLE sneaky (a int)')).toBe('permission denied for schema public');
    expect(await refused('CREATE TABLE pgboss.sneaky (a int)')).toBe('permission denied for schema pgboss');
    expect(await refused('DROP TABLE events')).toBe('must be owner of table events');
    expect(await refused('CREATE SCHEMA sneaky')).toMatch(/^permission denied for database /);
  });
});
