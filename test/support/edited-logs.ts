import Database from 'better-sqlite3';
import { recordedJob } from '../views/recorded-job.js';

// Jobs recorded by a real run in a SQLite file, and the edits an intruder with that file makes to
// their logs, for the tests that booty sees each one wherever it reads the log: `replay --verify`,
// boot, and a delivery for the job.

export interface RecordedJob {
  db: string;
  jobId: string;
}

/** Promoted and waiting with its PR 7 (head b×40): 12 events, the 7th the first attempt's failing tests. */
export async function parkedJob(): Promise<RecordedJob> {
  const { db, jobId } = await recordedJob();
  return { db, jobId };
}

/**
 * The same job as if booty had stopped right after its 4th event (analyze done, generating next):
 * unfinished, with work left, its read model as it stood then.
 */
export async function interruptedJob(): Promise<RecordedJob> {
  const { db, jobId } = await recordedJob();
  const raw = new Database(db);
  raw.prepare('DELETE FROM events WHERE stream_id = ? AND version > 4').run(jobId);
  raw
    .prepare(
      "UPDATE jobs SET state = 'generating', attempts = 0, version = 4, pr = NULL, reported_version = 0 WHERE job_id = ?",
    )
    .run(jobId);
  raw.close();
  return { db, jobId };
}

export interface LogEdit {
  name: string;
  job: () => Promise<RecordedJob>;
  /** The statement, its one parameter the job's id. */
  sql: string;
  /** The row the damage is found at, and what is said of it. */
  row: number;
  reason: string;
}

export const logEdits: LogEdit[] = [
  {
    name: 'a NULL hash after the first hashed row',
    job: interruptedJob,
    sql: 'UPDATE events SET hash = NULL WHERE stream_id = ? AND version = 3',
    row: 3,
    reason: 'event 3 has no hash, though the chain began at event 1: every row since must carry one',
  },
  {
    name: 'a duplicated last event with no hash',
    job: interruptedJob,
    sql: `INSERT INTO events (stream_id, version, type, schema_version, data, state, meta, at, hash)
          SELECT stream_id, 5, type, schema_version, data, state, meta, at, NULL
          FROM events WHERE stream_id = ? AND version = 4`,
    row: 5,
    reason: 'event 5 has no hash, though the chain began at event 1: every row since must carry one',
  },
  {
    name: 'an edited payload of a parked (promoted) job',
    job: parkedJob,
    sql: `UPDATE events SET data = replace(data, '"exitCode":1', '"exitCode":3')
          WHERE stream_id = ? AND version = 7`,
    row: 7,
    reason: 'event 7 is not what was written',
  },
];

/** Runs an edit on the database file behind booty's back; how many rows it changed. */
export function editLog(db: string, jobId: string, sql: string): number {
  const raw = new Database(db);
  try {
    return raw.prepare(sql).run(jobId).changes;
  } finally {
    raw.close();
  }
}

/** How many events the job's log holds. */
export function eventCount(db: string, jobId: string): number {
  const raw = new Database(db, { readonly: true });
  try {
    return (raw.prepare('SELECT count(*) AS n FROM events WHERE stream_id = ?').get(jobId) as { n: number })
      .n;
  } finally {
    raw.close();
  }
}
