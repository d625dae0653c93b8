import { type ChainRow, chainHash } from './hash-chain.js';
import { type EventRow, ReadEvent } from './read-event.js';
import type { JobRecord, NewEvent, StoredEvent } from './records.js';

// The rows both stores write and read: SQLite's and PostgreSQL's tables have the same columns (the
// server's bigints parsed to numbers, postgres-pool.ts), so one mapping serves both, and both hash
// an append's rows the same way.

export interface JobRow {
  job_id: string;
  repo: string;
  issue: number;
  state: string;
  attempts: number;
  /** SQLite has no booleans: there it is 0 or 1. */
  final: boolean | number;
  outcome: string | null;
  tokens: number;
  version: number;
  branch: string | null;
  pr: number | null;
  reported_version: number;
  /** Absent in rows read before the column existed (a schema from before held_by). */
  held_by?: string | null;
  held_since?: number | null;
  created_at: number;
  updated_at: number;
}

/** A row an append writes, with its place in the stream's hash chain. */
export interface ChainedRow extends Omit<ChainRow, 'hash'> {
  /** Kept as 32 bytes, not 64 hex characters: the chain costs every row its size. */
  hash: Buffer;
}

/**
 * The rows an append writes, each chained to the one before, starting from the stream's chain
 * head after `expectedVersion`; and the head after the last of them. Each row is one object,
 * built whole: an append is the store's hottest path, and every allocation in it shows.
 */
export function chainedRows(
  streamId: string,
  expectedVersion: number,
  events: NewEvent[],
  { head, at }: { head: string; at: number },
): { rows: ChainedRow[]; head: string } {
  const rows: ChainedRow[] = [];
  for (const e of events) {
    const version = expectedVersion + rows.length + 1;
    const type = e.type;
    const schemaVersion = e.version ?? 1;
    const data = JSON.stringify(e.data);
    const state = e.state ?? null;
    const meta = JSON.stringify(e.meta ?? {});
    head = chainHash(head, { streamId, version, type, schemaVersion, data, state, meta, at });
    rows.push({
      streamId,
      version,
      type,
      schemaVersion,
      data,
      state,
      meta,
      at,
      hash: Buffer.from(head, 'hex'),
    });
  }
  return { rows, head };
}

/** A row as written; a job's log is lifted and checked by readJobLog. */
export const toStoredEvent = (row: EventRow): StoredEvent => new ReadEvent(row);

export function toJobRecord(row: JobRow): JobRecord {
  return {
    jobId: row.job_id,
    repo: row.repo,
    issue: row.issue,
    state: row.state,
    attempts: row.attempts,
    final: row.final === true || row.final === 1,
    outcome: row.outcome,
    tokens: row.tokens,
    version: row.version,
    branch: row.branch ?? null,
    pr: row.pr ?? null,
    reportedVersion: row.reported_version,
    heldBy: row.held_by ?? null,
    heldSince: row.held_since ?? null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
