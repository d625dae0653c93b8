import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Supervisor } from '../../src/engine/supervisor.js';
import { type BootyError, isBootyError } from '../../src/errors.js';
import { Intake } from '../../src/intake/deliveries.js';
import { PostgresEventStore } from '../../src/store/postgres/postgres-event-store.js';
import { sampleRequest } from '../support/job-harness.js';
import { freshDatabase, freshSchema, onDatabase } from '../support/postgres-database.js';
import { scriptedEffects } from '../support/scripted-effects.js';

// The damaged-log checks on PostgreSQL, whose store marks and finds damaged jobs with its own
// statements: boot marks a job whose log an operator with the database edited, a delivery for
// its PR is refused and writes nothing, and so is one for a log edited while booty runs.

let database: string;
beforeAll(async () => {
  database = await freshDatabase();
});
const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

function booty(url: string) {
  const store = new PostgresEventStore(url);
  const effects = scriptedEffects({ tests: [false, true] });
  const damaged: BootyError[] = [];
  const supervisor = new Supervisor({
    store,
    effects: effects.impls,
    settings: { retryBaseMs: 1, retryCapMs: 5 },
    observers: [{ damaged: async (_, problem) => void damaged.push(problem) }],
  });
  const intake = new Intake(supervisor);
  closing.push(async () => {
    await supervisor.shutdown();
    await store.close();
  });
  return { store, supervisor, intake, effects, damaged };
}

/** A job run to `promoted` (12 events, waiting with its PR 7), its booty stopped; the schema's URL. */
async function parkedJob() {
  const url = await freshSchema(database);
  const b = booty(url);
  const r = await b.intake.submit(
    { id: 'd-labeled', event: 'issues', action: 'labeled' },
    { kind: 'request', request: sampleRequest() },
  );
  if (r.outcome !== 'created') throw new Error(r.outcome);
  expect((await b.supervisor.whenFinished(r.jobId)).value).toBe('promoted');
  await b.supervisor.shutdown();
  await b.store.close();
  return { url, jobId: r.jobId };
}

const ciOnHead = (id: string) =>
  [
    { id, event: 'check_suite', action: 'completed' },
    {
      kind: 'wake',
      repo: { owner: 'acme', name: 'widgets' },
      target: { pr: 7 },
      event: { type: 'CiCompleted', headSha: 'b'.repeat(40), source: 'check_suite', conclusion: 'success' },
    },
  ] as const;

const events = async (url: string, jobId: string) =>
  (await onDatabase(url, (c) => c.query('SELECT version FROM events WHERE stream_id = $1', [jobId])))
    .rowCount;

// The hash column is NOT NULL here: an intruder drops that first.
const edits: [string, string, number, string][] = [
  [
    'an edited payload',
    `UPDATE events SET data = replace(data, '"exitCode":1', '"exitCode":3') WHERE stream_id = $1 AND version = 7`,
    7,
    'event 7 is not what was written',
  ],
  [
    'a NULL hash after the first hashed row',
    `ALTER TABLE events ALTER COLUMN hash DROP NOT NULL;
     UPDATE events SET hash = NULL WHERE stream_id = $1 AND version = 3`,
    3,
    'event 3 has no hash, though the chain began at event 1',
  ],
  [
    'a duplicated last event with no hash',
    `ALTER TABLE events ALTER COLUMN hash DROP NOT NULL;
     INSERT INTO events (position, stream_id, version, type, schema_version, data, state, meta, at, hash)
     SELECT (SELECT max(position) + 1 FROM events), stream_id, 13, type, schema_version, data, state, meta, at, NULL
     FROM events WHERE stream_id = $1 AND version = 12`,
    13,
    'event 13 has no hash, though the chain began at event 1',
  ],
];

/** Runs an edit's statements in turn, the job's id for its $1. */
async function edit(url: string, jobId: string, sql: string) {
  await onDatabase(url, async (c) => {
    for (const statement of sql.split(';').map((s) => s.trim()))
      await c.query(statement, statement.includes('$1') ? [jobId] : []);
  });
}

describe('a damaged log on PostgreSQL', () => {
  it.each(edits)(
    'given %s of a parked job, then boot marks it damaged and owes its report, and CI on its PR is refused and writes nothing',
    async (_, sql, row, reason) => {
      const { url, jobId } = await parkedJob();
      await edit(url, jobId, sql);
      const before = await events(url, jobId);
      const b = booty(url);
      expect(await b.supervisor.boot()).toEqual([]);
      expect(await b.store.getJob(jobId)).toMatchObject({
        state: 'damaged',
        final: true,
        outcome: 'damaged',
      });
      expect((await b.store.listUnreported()).map((j) => j.jobId)).toEqual([jobId]);
      expect(b.damaged.map((p) => [p.code, p.params.seq])).toEqual([['BOOTY_E_LOG_TAMPERED', row]]);
      expect(b.damaged[0]!.message).toContain(reason);
      const err = await b.intake.submit(...ciOnHead('d-ci')).catch((e: unknown) => e);
      expect(isBootyError(err, 'BOOTY_E_JOB_DAMAGED')).toBe(true);
      expect(await events(url, jobId)).toBe(before);
      expect(b.effects.log).toEqual([]);
    },
  );

  it('given a parked job edited while booty runs, then CI on its PR is refused, nothing is appended, and the job is marked damaged once', async () => {
    const { url, jobId } = await parkedJob();
    const b = booty(url);
    expect(await b.supervisor.boot()).toEqual([]);
    await edit(url, jobId, edits[0]![1]);
    const before = await events(url, jobId);
    for (const id of ['d-ci-1', 'd-ci-2']) {
      const err = await b.intake.submit(...ciOnHead(id)).catch((e: unknown) => e);
      expect(isBootyError(err, 'BOOTY_E_JOB_DAMAGED')).toBe(true);
    }
    await b.supervisor.onIdle();
    expect(await events(url, jobId)).toBe(before);
    expect(await b.store.getJob(jobId)).toMatchObject({ state: 'damaged', final: true });
    expect(b.damaged.map((p) => p.code)).toEqual(['BOOTY_E_LOG_TAMPERED']);
  });

  it('given the parked job untouched, then CI on its PR wakes it', async () => {
    const { url, jobId } = await parkedJob();
    const b = booty(url);
    await b.supervisor.boot();
    expect(await b.intake.submit(...ciOnHead('d-ci'))).toEqual({ outcome: 'woke', jobId });
    await b.supervisor.onIdle();
    expect(await events(url, jobId)).toBe(14);
  });
});
