import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { Supervisor } from '../../src/engine/supervisor.js';
import { Intake } from '../../src/intake/deliveries.js';
import { PostgresEventStore } from '../../src/store/postgres/postgres-event-store.js';
import { SqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import { compiled } from '../support/compiled.js';
import { sampleRequest, tempDir } from '../support/job-harness.js';
import { freshDatabase, onDatabase } from '../support/postgres-database.js';
import { scriptedEffects } from '../support/scripted-effects.js';
import { until } from '../support/until.js';

// `booty jobs` and `booty replay` on a PostgreSQL database, through the compiled CLI in a process
// of its own, as an operator runs them. A real job runs on the PostgreSQL store; its rows, copied
// as they are into a SQLite file, must print exactly the same.

const exec = promisify(execFile);
const bin = () => compiled('src/cli/bin.ts');

async function booty(args: string[], env: NodeJS.ProcessEnv = {}) {
  return exec(process.execPath, [bin(), ...args], { env: { PATH: process.env.PATH, ...env } }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e) => ({ code: e.code as number, stdout: e.stdout as string, stderr: e.stderr as string }),
  );
}

let url: string;
let jobId: string;
let sqlite: string;
const DAY = 86_400_000;

beforeAll(async () => {
  url = await freshDatabase();
  const store = await PostgresEventStore.open(url);
  const supervisor = new Supervisor({
    store,
    effects: scriptedEffects({ tests: [false, true] }).impls,
    settings: { retryBaseMs: 1, retryCapMs: 5 },
  });
  const intake = new Intake(supervisor);
  const r = await intake.submit(
    { id: 'delivery-1', event: 'issues', action: 'labeled' },
    { kind: 'request', request: sampleRequest(1) },
  );
  if (r.outcome !== 'created') throw new Error(r.outcome);
  jobId = r.jobId;
  await supervisor.whenFinished(jobId);
  await supervisor.shutdown();
  await store.close();
  // Three days and an hour old, so `booty jobs` shows the age 3d however long the test takes.
  await onDatabase(url, (c) => c.query('UPDATE jobs SET created_at = $1', [Date.now() - 3 * DAY - DAY / 24]));
  sqlite = await copyToSqlite(url);
});

describe('booty jobs and booty replay on PostgreSQL', () => {
  it('replay --db postgres://… prints the verified timeline, the same as from the same rows in SQLite', async () => {
    const fromPg = await booty(['replay', jobId, '--db', url]);
    expect(fromPg).toMatchObject({ code: 0, stderr: '' });
    const lines = fromPg.stdout.split('\n');
    expect(lines[0]).toBe(
      `job ${jobId}  acme/widgets#1  promoted  (verified: the hash chain holds and every recorded state matches the fold)`,
    );
    // The DELTA column is as wide as the widest gap between events, which the clock decides.
    expect(lines[2]).toMatch(
      /^SEQ {2}TIME {22}DELTA +EVENT {17}STATE {7}ATTEMPT {2}TOKENS in\/out\/cache-r\/cache-w$/,
    );
    const events = await countEvents();
    expect(lines.slice(3).filter(Boolean)).toHaveLength(events);
    expect(fromPg.stdout).toBe((await booty(['replay', jobId, '--db', sqlite])).stdout);

    const json = await booty(['replay', jobId, '--json', '--verify', '--db', url]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ jobId, verified: true, finalState: 'promoted' });
    expect(json.stdout).toBe((await booty(['replay', jobId, '--json', '--verify', '--db', sqlite])).stdout);
  });

  it('jobs --db postgres://… prints the job table and its JSON; BOOTY_DATABASE_URL does the same', async () => {
    const job = await onDatabase(url, async (c) => (await c.query('SELECT * FROM jobs')).rows[0]);
    const table = await booty(['jobs', '--db', url]);
    const id = 'ID'.padEnd(jobId.length);
    expect(table).toEqual({
      code: 0,
      stderr: '',
      stdout: `${id}  ISSUE           STATE     ATTEMPTS  AGE  WORKER  OUTCOME\n${jobId}  acme/widgets#1  promoted  2         3d           tests-passed\n`,
    });
    expect((await booty(['jobs'], { BOOTY_DATABASE_URL: url })).stdout).toBe(table.stdout);
    expect((await booty(['jobs', '--db', sqlite])).stdout).toBe(table.stdout);

    const json = await booty(['jobs', '--json', '--db', url]);
    const expected = [
      {
        jobId,
        repo: 'acme/widgets',
        issue: 1,
        state: 'promoted',
        final: false,
        outcome: 'tests-passed',
        attempts: 2,
        tokens: Number(job.tokens),
        events: await countEvents(),
        heldBy: null,
        heldSince: null,
        createdAt: new Date(Number(job.created_at)).toISOString(),
        updatedAt: new Date(Number(job.updated_at)).toISOString(),
      },
    ];
    expect(json).toEqual({ code: 0, stderr: '', stdout: `${JSON.stringify(expected, null, 2)}\n` });
  });

  it('jobs --db postgres://… shows the worker running a job, and since when', async () => {
    const running = await freshDatabase();
    const store = await PostgresEventStore.open(running);
    const effects = scriptedEffects();
    // The first step waits until its run is stopped: the job is held while the CLI reads.
    let started = false;
    effects.impls.prepare = ((_input, ctx) =>
      new Promise((_resolve, reject) => {
        started = true;
        ctx.signal.addEventListener('abort', () => reject(new Error('stopped')));
      })) as typeof effects.impls.prepare;
    const supervisor = new Supervisor({
      store,
      effects: effects.impls,
      settings: { retryBaseMs: 1, retryCapMs: 5 },
      worker: 'worker-7',
    });
    try {
      const r = await new Intake(supervisor).submit(
        { id: 'delivery-1', event: 'issues', action: 'labeled' },
        { kind: 'request', request: sampleRequest(1) },
      );
      if (r.outcome !== 'created') throw new Error(r.outcome);
      await until('the first step to start', async () => started);
      const table = await booty(['jobs', '--db', running]);
      expect(table.code).toBe(0);
      expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+ISSUE\s+STATE\s+ATTEMPTS\s+AGE\s+WORKER\s+OUTCOME$/);
      expect(table.stdout).toMatch(
        new RegExp(`^${r.jobId}\\s+acme/widgets#1\\s+\\w+\\s+\\d+\\s+\\d+s\\s+worker-7 \\(\\d+s\\)`, 'm'),
      );
      const [json] = JSON.parse((await booty(['jobs', '--json', '--db', running])).stdout);
      expect(json).toMatchObject({ jobId: r.jobId, heldBy: 'worker-7' });
      expect(Date.parse(json.heldSince)).toBeGreaterThanOrEqual(Date.parse(json.createdAt));
    } finally {
      await supervisor.shutdown();
      await store.close();
    }
  });

  it('jobs on a PostgreSQL database without booty in it fails in one line, the password left out', async () => {
    const empty = new URL(await freshDatabase());
    const result = await booty(['jobs', '--db', empty.href]);
    const shown = `postgres://postgres:***@${empty.host}${empty.pathname}`;
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `booty jobs: no database at ${shown}; pass --db PATH (or a postgres:// URL) or set BOOTY_DB (\`node ${path.relative(process.cwd(), bin())} demo\` makes one) (BOOTY_E_DB_MISSING)\n`,
    });
    // Reading created nothing.
    expect(
      await onDatabase(
        empty.href,
        async (c) => (await c.query("SELECT to_regclass('events') AS t")).rows[0].t,
      ),
    ).toBeNull();
  });
});

const countEvents = () =>
  onDatabase(url, async (c) => Number((await c.query('SELECT count(*) AS n FROM events')).rows[0].n));

/** The database's rows, byte for byte, in a new SQLite store. */
async function copyToSqlite(from: string): Promise<string> {
  const file = path.join(tempDir(), 'copy.db');
  await new SqliteEventStore(file).close();
  const { events, jobs } = await onDatabase(from, async (c) => ({
    events: (await c.query('SELECT * FROM events ORDER BY position')).rows,
    jobs: (await c.query('SELECT * FROM jobs')).rows,
  }));
  const db = new Database(file);
  const insertEvent = db.prepare(
    `INSERT INTO events (position, stream_id, version, type, schema_version, data, state, meta, at, hash)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const e of events)
    insertEvent.run(
      Number(e.position),
      e.stream_id,
      e.version,
      e.type,
      e.schema_version,
      e.data,
      e.state,
      e.meta,
      Number(e.at),
      e.hash,
    );
  const insertJob = db.prepare(
    `INSERT INTO jobs (job_id, repo, issue, state, attempts, final, outcome, tokens, version, branch, pr,
       reported_version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const j of jobs)
    insertJob.run(
      j.job_id,
      j.repo,
      j.issue,
      j.state,
      j.attempts,
      j.final ? 1 : 0,
      j.outcome,
      Number(j.tokens),
      j.version,
      j.branch,
      j.pr,
      j.reported_version,
      Number(j.created_at),
      Number(j.updated_at),
    );
  db.close();
  return file;
}
