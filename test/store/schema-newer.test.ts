import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { PostgresEventStore } from '../../src/store/postgres/postgres-event-store.js';
import { SqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import { tempDir } from '../support/job-harness.js';
import { freshDatabase, onDatabase } from '../support/postgres-database.js';
import { serveProcess } from '../support/serve-process.js';

// A worker started on a database that a newer booty migrated (a rolling upgrade run backwards, an
// old image left in the fleet) must not start: it exits 1 with one line naming both versions, and
// writes nothing. The real CLI in a child process, on PostgreSQL (booty's schema and pg-boss's) and
// on SQLite.

function serve(env: Record<string, string>) {
  const dir = tempDir('booty-schema-newer-');
  return serveProcess(
    {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      BOOTY_DB: path.join(dir, 'booty.db'),
      BOOTY_WORKDIR: path.join(dir, 'work'),
      BOOTY_SANDBOX: 'off',
      GITHUB_WEBHOOK_SECRET: 'secret',
      GITHUB_TOKEN: `ghp_${'x'.repeat(36)}`,
      ANTHROPIC_API_KEY: 'sk-ant-test-key',
      ...env,
    },
    { only: true },
  );
}

/** The one line it wrote, after it exited 1. */
async function refusal(s: ReturnType<typeof serve>): Promise<string> {
  expect(await s.exited, s.err()).toBe(1);
  const lines = s.err().trim().split('\n');
  expect(lines, s.err()).toHaveLength(1);
  return lines[0]!;
}

describe('a worker on a schema from a newer booty', () => {
  it('given a PostgreSQL database migrated past this build, then serve exits 1 with one line naming both versions', async () => {
    const url = await freshDatabase();
    await (await PostgresEventStore.open(url)).close();
    const known = await onDatabase(url, async (c) => {
      const { rows } = await c.query<{ v: number }>('SELECT max(version)::int AS v FROM schema_migrations');
      await c.query(`INSERT INTO schema_migrations (version, name) VALUES ($1, 'from-the-future')`, [
        rows[0]!.v + 1,
      ]);
      return rows[0]!.v;
    });
    const line = await refusal(serve({ BOOTY_DATABASE_URL: url }));
    expect(line).toMatch(
      new RegExp(
        `schema version ${known + 1}, newer than this booty knows \\(${known}\\).*BOOTY_E_SCHEMA_NEWER`,
      ),
    );
    expect(line).not.toContain('booty-test');
  });

  it("given pg-boss's schema migrated past the pg-boss this build has, then serve exits 1 with one line", async () => {
    const url = await freshDatabase();
    // A serve made the queue's schema; a newer pg-boss then moved its version on.
    const first = serve({ BOOTY_DATABASE_URL: url });
    await first.url;
    first.proc.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const known = await onDatabase(url, async (c) => {
      const { rows } = await c.query<{ version: number }>('SELECT version FROM pgboss.version');
      await c.query('UPDATE pgboss.version SET version = version + 1');
      return rows[0]!.version;
    });
    const line = await refusal(serve({ BOOTY_DATABASE_URL: url }));
    expect(line).toMatch(
      new RegExp(
        `job queue's \\(pg-boss\\) schema version ${known + 1}, newer than this booty knows \\(${known}\\)`,
      ),
    );
  });

  it('given a SQLite file migrated past this build, then serve exits 1 with one line', async () => {
    const dir = tempDir('booty-schema-newer-sqlite-');
    const file = path.join(dir, 'booty.db');
    await new SqliteEventStore(file).close();
    const db = new Database(file);
    const known = db.pragma('user_version', { simple: true }) as number;
    db.pragma(`user_version = ${known + 1}`);
    db.close();
    const line = await refusal(serve({ BOOTY_DB: file }));
    expect(line).toMatch(
      new RegExp(`schema version ${known + 1}, newer than this booty knows \\(${known}\\)`),
    );
  });
});
