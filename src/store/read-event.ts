import type { EventMeta, StoredEvent } from './records.js';

// A row as read, with the payload and metadata text it was read from kept in a private field: the
// very text its writer hashed, so the chain's check need not write the JSON again (hash-chain.ts).
// A private field, not a map beside the rows: a plain read pays next to nothing for it, and the
// row reads, serialises and compares as before (its fields in the same order).

/** A row of the events table, as SQLite and PostgreSQL both return it. */
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
  /** Null only in SQLite rows written before the hash chain. */
  hash: Uint8Array | null;
}

export class ReadEvent implements StoredEvent {
  position: number;
  streamId: string;
  version: number;
  type: string;
  schemaVersion: number;
  data: Record<string, unknown>;
  state: string | null;
  meta: EventMeta;
  at: number;
  hash: string | null;
  readonly #row: EventRow;

  constructor(row: EventRow) {
    this.position = row.position;
    this.streamId = row.stream_id;
    this.version = row.version;
    this.type = row.type;
    this.schemaVersion = row.schema_version;
    this.data = JSON.parse(row.data);
    this.state = row.state;
    this.meta = JSON.parse(row.meta);
    this.at = row.at;
    this.hash = row.hash === null ? null : Buffer.from(row.hash).toString('hex');
    this.#row = row;
  }

  /** The payload and metadata text a chained row was read from; null for any other event. */
  static writtenText(e: StoredEvent): { data: string; meta: string } | null {
    return #row in e && e.hash !== null ? (e as ReadEvent).#row : null;
  }
}
