import { hash } from 'node:crypto';
import { ReadEvent } from './read-event.js';
import type { StoredEvent } from './records.js';

// Each row of a stream carries a hash of the row before it and of everything it holds, so an edit
// anywhere shows: a changed payload or recorded state, a deleted, duplicated or reordered row. A
// log from before the chain (no hashes) is chained all the same when it is checked, so a row
// appended after an upgrade still covers the old ones.
//
// A missing hash is no way around it. The chain came with machine 2 (the hash column is the SQLite
// store's second migration; PostgreSQL's rows always had it), so only rows machine 1 wrote may
// lack one, and only before the first row that has one: those are the log from before the chain.
// A row without a hash anywhere else is an edit, exactly as a wrong hash is.

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

/** The first machine version whose booty chained every row it wrote. */
export const CHAINED_SINCE_MACHINE = 2;

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
  /** The first row that carried a hash: the chain had begun by then. */
  let chainedAt: number | null = null;
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
    const broken =
      row.hash === null
        ? unhashed(row, chainedAt)
        : row.hash !== head
          ? `event ${row.version} is not what was written`
          : null;
    if (broken) return { head, broken: { seq: row.version, reason: broken } };
    if (row.hash !== null) chainedAt ??= row.version;
  }
  return { head, broken: null };
}

/** Why a row without a hash cannot be from before the chain; null when it can. */
function unhashed(row: ChainRow, chainedAt: number | null): string | null {
  if (chainedAt !== null)
    return `event ${row.version} has no hash, though the chain began at event ${chainedAt}: every row since must carry one`;
  const machine = machineOf(row.meta);
  if (machine >= CHAINED_SINCE_MACHINE)
    return `event ${row.version} has no hash, though machine ${machine} wrote it, and every booty since machine ${CHAINED_SINCE_MACHINE} chains its rows`;
  return null;
}

/** The machine version a row's metadata (JSON text) names; rows of the first logs name 1 or none. */
function machineOf(meta: string): number {
  const version = (JSON.parse(meta) as { machineVersion?: unknown }).machineVersion;
  return typeof version === 'number' ? version : 1;
}

/**
 * A stored event as the chain hashes it: payload and metadata as the JSON text written. A row
 * from before the chain was chained, when a later row was appended, as its JSON written again.
 */
export const chainRow = (e: StoredEvent): ChainRow => {
  const text = ReadEvent.writtenText(e);
  return {
    streamId: e.streamId,
    version: e.version,
    type: e.type,
    schemaVersion: e.schemaVersion,
    data: text?.data ?? JSON.stringify(e.data),
    meta: text?.meta ?? JSON.stringify(e.meta),
    state: e.state,
    at: e.at,
    hash: e.hash,
  };
};

/** Where a stream's rows stop checking out, or null when every row is as written. */
export const brokenAt = (events: readonly StoredEvent[]) => walkChain(events.map(chainRow)).broken;
