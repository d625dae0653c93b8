import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MACHINE_VERSION } from '../../src/events/versions.js';
import { chainHash } from '../../src/store/hash-chain.js';
import { cli } from '../support/cli.js';
import { compiled } from '../support/compiled.js';
import { recordedJob } from '../views/recorded-job.js';

const exec = promisify(execFile);

describe('booty replay', () => {
  it('prints the JSON timeline of a finished job, verified', async () => {
    const { db, jobId } = await recordedJob();
    const { code, out } = await cli(['replay', jobId, '--json', '--verify', '--db', db]);
    expect(code).toBe(0);
    const json = JSON.parse(out);
    expect(json).toMatchObject({ jobId, verified: true, finalState: 'promoted' });
    expect(json.events[0]).toMatchObject({ seq: 1, type: 'JobRequested', state: 'preparing' });
    expect(json.events.map((e: { state: string }) => e.state)).toContain('refining');
    const analyze = json.events.find(
      (e: { type: string; step?: string }) => e.type === 'StepSucceeded' && e.step === 'analyze',
    );
    expect(analyze.tokens).toEqual({ input: 100, output: 0, cacheRead: 0, cacheWrite: 0 });
    expect(json.events.every((e: { at: string }) => !Number.isNaN(Date.parse(e.at)))).toBe(true);
  });

  it('prints a readable timeline with states, attempts and tokens', async () => {
    const { db, jobId } = await recordedJob();
    const { code, out } = await cli(['replay', jobId, '--db', db]);
    expect(code).toBe(0);
    expect(out).toContain(`job ${jobId}  acme/widgets#1  promoted  (verified`);
    expect(out).toMatch(/SEQ\s+TIME\s+DELTA\s+EVENT\s+STATE\s+ATTEMPT\s+TOKENS/);
    expect(out).toMatch(/analyze done\s+generating\s+1\s+100\/0\/0\/0/);
    expect(out).toMatch(/test done\s+refining\s+2/);
  });

  /** An edit, what --verify says of it, and the row it names (0: none; -1: one past the last written). */
  const edits: [string, string, (db: Database.Database, jobId: string, n: number) => void, number][] = [
    [
      'a changed payload that leaves every state alone',
      'event 7 is not what was written',
      (db, jobId) =>
        db
          .prepare(
            'UPDATE events SET data = replace(data, \'"exitCode":1\', \'"exitCode":3\') WHERE stream_id = ? AND version = 7',
          )
          .run(jobId),
      7,
    ],
    [
      'a changed recorded state',
      'event 5 is not what was written',
      (db, jobId) =>
        db.prepare("UPDATE events SET state = 'promoted' WHERE stream_id = ? AND version = 5").run(jobId),
      5,
    ],
    [
      'a deleted row',
      'event 4 is missing',
      (db, jobId) => db.prepare('DELETE FROM events WHERE stream_id = ? AND version = 4').run(jobId),
      4,
    ],
    [
      'a duplicated row',
      'is not what was written',
      (db, jobId, n) =>
        db
          .prepare(
            `INSERT INTO events (stream_id, version, type, schema_version, data, state, meta, at, hash)
             SELECT stream_id, ?, type, schema_version, data, state, meta, at, hash FROM events WHERE stream_id = ? AND version = 3`,
          )
          .run(n + 1, jobId),
      0,
    ],
    [
      'a changed payload whose hash was set to NULL, after the first hashed row',
      'event 7 has no hash, though the chain began at event 1: every row since must carry one',
      (db, jobId) =>
        db
          .prepare(
            'UPDATE events SET data = replace(data, \'"exitCode":1\', \'"exitCode":3\'), hash = NULL WHERE stream_id = ? AND version = 7',
          )
          .run(jobId),
      7,
    ],
    [
      'a duplicated last event with no hash',
      'has no hash, though the chain began at event 1',
      (db, jobId, n) =>
        db
          .prepare(
            `INSERT INTO events (stream_id, version, type, schema_version, data, state, meta, at, hash)
             SELECT stream_id, version + 1, type, schema_version, data, state, meta, at, NULL FROM events WHERE stream_id = ? AND version = ?`,
          )
          .run(jobId, n),
      -1,
    ],
    [
      'every hash set to NULL, as if the log were from before the chain',
      `event 1 has no hash, though machine ${MACHINE_VERSION} wrote it, and every booty since machine 2 chains its rows`,
      (db, jobId) => db.prepare('UPDATE events SET hash = NULL WHERE stream_id = ?').run(jobId),
      1,
    ],
    [
      'a reordered pair',
      'event 5 is not what was written',
      (db, jobId) => {
        const rows = db
          .prepare('SELECT * FROM events WHERE stream_id = ? AND version IN (5, 6) ORDER BY version')
          .all(jobId) as any[];
        const set = db.prepare(
          'UPDATE events SET type = ?, data = ?, state = ?, meta = ?, hash = ? WHERE stream_id = ? AND version = ?',
        );
        set.run(rows[1].type, rows[1].data, rows[1].state, rows[1].meta, rows[1].hash, jobId, 5);
        set.run(rows[0].type, rows[0].data, rows[0].state, rows[0].meta, rows[0].hash, jobId, 6);
      },
      5,
    ],
  ];

  it.each(edits)('given %s, --verify exits 1 naming the edit', async (_, reason, edit, at) => {
    const { db, jobId } = await recordedJob();
    const raw = new Database(db);
    const n = (
      raw.prepare('SELECT count(*) AS n FROM events WHERE stream_id = ?').get(jobId) as { n: number }
    ).n;
    edit(raw, jobId, n);
    raw.close();
    const { code, err } = await cli(['replay', jobId, '--verify', '--db', db]);
    expect(code).toBe(1);
    expect(err).toContain(`the log of job ${jobId} was changed after it was written`);
    expect(err).toContain(reason);
    // -1: the row after the last one written.
    if (at) expect(err).toContain(`event ${at === -1 ? n + 1 : at}`);
    expect(err).toContain('BOOTY_E_LOG_TAMPERED');
  });

  it('given a log whose chain holds but whose states the machine no longer reaches, --verify exits 1 naming the first divergent event', async () => {
    const { db, jobId } = await recordedJob();
    const raw = new Database(db);
    // As a log written by a machine that decided differently would be: edited, then chained again.
    raw.prepare("UPDATE events SET state = 'promoted' WHERE stream_id = ? AND version = 5").run(jobId);
    let head = '';
    for (const row of raw
      .prepare('SELECT * FROM events WHERE stream_id = ? ORDER BY version')
      .all(jobId) as any[]) {
      head = chainHash(head, {
        streamId: row.stream_id,
        version: row.version,
        type: row.type,
        schemaVersion: row.schema_version,
        data: row.data,
        meta: row.meta,
        state: row.state,
        at: row.at,
      });
      raw
        .prepare('UPDATE events SET hash = ? WHERE position = ?')
        .run(Buffer.from(head, 'hex'), row.position);
    }
    raw.close();
    const { code, err } = await cli(['replay', jobId, '--verify', '--db', db]);
    expect(code).toBe(1);
    expect(err).toContain('replay diverged at event 5 (generate done)');
    expect(err).toContain('the log recorded promoted, the machine reaches applying');
    expect(err).toContain('BOOTY_E_REPLAY_DIVERGED');
    const json = await cli(['replay', jobId, '--json', '--db', db]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out).verified).toBe(false);
  });

  it('--until N prints the snapshot after event N, inside the refine loop', async () => {
    const { db, jobId } = await recordedJob();
    for (const [n, state, attempt] of [
      [1, 'preparing', 0],
      [4, 'generating', 1],
      [7, 'refining', 2],
      [8, 'applying', 2],
    ] as const) {
      const { code, out } = await cli(['replay', jobId, '--json', '--until', String(n), '--db', db]);
      expect(code).toBe(0);
      const json = JSON.parse(out);
      expect(json.events).toHaveLength(n);
      expect(json.snapshot.state).toBe(state);
      expect(json.snapshot.context.attempt).toBe(attempt);
    }
    const bad = await cli(['replay', jobId, '--until', 'zero', '--db', db]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--until must be a whole number');
  });

  it('names an unknown job and a missing database in one line', async () => {
    const { db } = await recordedJob();
    const unknown = await cli(['replay', 'nope', '--db', db]);
    expect(unknown).toMatchObject({ code: 1 });
    expect(unknown.err).toBe(
      'booty replay: no job nope in the event store; list jobs with `booty jobs` (BOOTY_E_STREAM_NOT_FOUND)',
    );
    const missing = await cli(['replay', 'x', '--db', '/nonexistent/booty.db']);
    expect(missing.err).toContain('no database at /nonexistent/booty.db');
  });
});

describe('booty jobs', () => {
  it('lists id, repo#issue, state, attempts and age', async () => {
    const { db, jobId } = await recordedJob();
    const { code, out } = await cli(['jobs', '--db', db]);
    expect(code).toBe(0);
    expect(out.split('\n')[0]).toMatch(/^ID\s+ISSUE\s+STATE\s+ATTEMPTS\s+AGE/);
    expect(out).toMatch(new RegExp(`${jobId}\\s+acme/widgets#1\\s+promoted\\s+2\\s+\\d+s`));
    const json = JSON.parse((await cli(['jobs', '--json', '--db', db])).out);
    expect(json).toEqual([
      expect.objectContaining({
        jobId,
        repo: 'acme/widgets',
        issue: 1,
        state: 'promoted',
        attempts: 2,
        // A promoted job waits with its PR: it is not final.
        final: false,
      }),
    ]);
  });

  it('exits with a usage error for unknown commands and options, through the real binary', async () => {
    const run = (args: string[]) =>
      exec(process.execPath, [compiled('src/cli/bin.ts'), ...args]).then(
        (r) => ({ code: 0, ...r }),
        (e) => ({ code: e.code as number, stdout: e.stdout as string, stderr: e.stderr as string }),
      );
    const unknown = await run(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim()).toBe(
      `booty: unknown command "frobnicate"; the commands are demo, serve, run, eval, jobs, migrate, token, replay, app, machine; see \`node ${path.relative(process.cwd(), compiled('src/cli/bin.ts'))} --help\` (BOOTY_E_USAGE)`,
    );
    const help = await run(['jobs', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: booty jobs');
  });
});
