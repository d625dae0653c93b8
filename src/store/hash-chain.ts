import { hash } from 'node:crypto';
import type { StoredEvent } from './event-store.js';

// Each row of a stream carries a hash of the row before it and of everything it holds, so an edit
// anywhere shows: a changed payload or recorded state, a deleted, duplicated or reordered row. A
// log from before the chain (no hashes) is chained all the same when it is checked, so a row
// appended after an upgrade still covers the old ones.

export interface ChainRow {
  streamId: string;
  version: number;
  type: string;
  schemaVersion: number;
  /** The payload and metadata exactly as stored (JSON text). */
  data: string;
  meta: string;
  state: string | null;
  at: number;
  hash: string | null;
}

export function chainHash(previous: string, row: Omit<ChainRow, 'hash'>): string {
  // Fields joined by NUL, which JSON text never holds unescaped: no two rows hash the same input.
  return hash(
    'sha256',
    `${previous}\0${row.streamId}\0${row.version}\0${row.type}\0${row.schemaVersion}\0${row.state ?? ''}\0${row.at}\0${row.meta}\0${row.data}`,
  );
}

/** The chain's value after these rows (in version order), and the first row that breaks it. */
export function walkChain(rows: readonly ChainRow[]): {
  head: string;
  broken: { seq: number; reason: string } | null;
} {
  let head = '';
  for (const [i, row] of rows.entries()) {
    if (row.version !== i + 1) {
      return {
        head,
        broken: {
          seq: i + 1,
          reason:
            row.version > i + 1
              ? `event ${i + 1} is missing (the next row is event ${row.version})`
              : `event ${row.version} appears twice`,
        },
      };
    }
    head = chainHash(head, row);
    if (row.hash !== null && row.hash !== head) {
      return { head, broken: { seq: row.version, reason: `event ${row.version} is not what was written` } };
    }
  }
  return { head, broken: null };
}

/** A stored event as the chain hashes it: payload and metadata as the JSON text written. */
export const chainRow = (e: StoredEvent): ChainRow => ({
  streamId: e.streamId,
  version: e.version,
  type: e.type,
  schemaVersion: e.schemaVersion,
  data: JSON.stringify(e.data),
  meta: JSON.stringify(e.meta),
  state: e.state,
  at: e.at,
  hash: e.hash,
});

/** Where a stream's rows stop checking out, or null when every row is as written. */
export const brokenAt = (events: readonly StoredEvent[]) => walkChain(events.map(chainRow)).broken;
