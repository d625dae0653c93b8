import type { JobRecord, StoredEvent } from '../event-store.js';

// The PostgreSQL store's rows as the server returns them (bigint columns parsed to numbers, see
// postgres-pool.ts), and the store's records made from them.

export interface EventRow {
  position: number;
  stream_id: string;
  version: number;
  type: string;
  schema_version: number;
  data: string;
  state: string | null;
  meta: string;
  at: number;
  hash: Buffer;
}

/** What booty_append (migrations/001-init.ts) answers. */
export interface AppendRow {
  was_duplicate: boolean;
  new_version: number;
  last_position: number;
}

export interface JobRow {
  job_id: string;
  repo: string;
  issue: number;
  state: string;
  attempts: number;
  final: boolean;
  outcome: string | null;
  tokens: number;
  version: number;
  branch: string | null;
  pr: number | null;
  reported_version: number;
  created_at: number;
  updated_at: number;
}

/** A row as written; a job's log is lifted and checked by readJobLog. */
export function toStoredEvent(row: EventRow): StoredEvent {
  return {
    position: row.position,
    streamId: row.stream_id,
    version: row.version,
    type: row.type,
    schemaVersion: row.schema_version,
    data: JSON.parse(row.data),
    state: row.state,
    meta: JSON.parse(row.meta),
    at: row.at,
    hash: row.hash.toString('hex'),
  };
}

export function toJobRecord(row: JobRow): JobRecord {
  return {
    jobId: row.job_id,
    repo: row.repo,
    issue: row.issue,
    state: row.state,
    attempts: row.attempts,
    final: row.final,
    outcome: row.outcome,
    tokens: row.tokens,
    version: row.version,
    branch: row.branch,
    pr: row.pr,
    reportedVersion: row.reported_version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
