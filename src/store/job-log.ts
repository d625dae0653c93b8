import { BootyError } from '../errors.js';
import { type DomainEvent, type EventType, parsePayload } from '../events/catalogue.js';
import { recordedStateNow, upcast } from '../events/versions.js';
import type { EventLog } from './event-log.js';
import type { StoredEvent } from './records.js';

// A job's log as booty's domain events: every row lifted to its current shape and validated
// against the catalogue. A row that is not a known event, or not a valid one, stops the read with
// an error naming the job and the row; nothing downstream guesses at a shape.

export interface LogEntry extends Omit<StoredEvent, 'type' | 'data'> {
  type: EventType;
  /** The event without its type, as the row holds it. */
  data: Record<string, unknown>;
  event: DomainEvent;
}

export function toLogEntry(row: StoredEvent): LogEntry {
  const where = { stream: row.streamId, seq: row.version };
  const lifted = upcast(
    { type: row.type, version: row.schemaVersion, data: row.data, meta: row.meta },
    where,
  );
  const type = lifted.type as EventType;
  let data: Record<string, unknown>;
  try {
    data = parsePayload(type, lifted.data);
  } catch (err) {
    const issue = (err as { issues?: { path: PropertyKey[]; message: string }[] }).issues?.[0];
    throw new BootyError('BOOTY_E_EVENT_INVALID', {
      ...where,
      type: lifted.type,
      reason: issue ? `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}` : String(err),
    });
  }
  const event = { type, ...data } as DomainEvent;
  const state = recordedStateNow(row.state, row.meta.machineVersion, { type, data });
  // Built field by field, not spread: this runs for every row a boot checks.
  return {
    position: row.position,
    streamId: row.streamId,
    version: row.version,
    type,
    schemaVersion: lifted.version,
    data,
    state,
    meta: row.meta,
    at: row.at,
    hash: row.hash,
    event,
  };
}

/** The job's log, read and checked; empty when there is no such job. */
export const readJobLog = async (store: Pick<EventLog, 'readStream'>, jobId: string): Promise<LogEntry[]> =>
  (await store.readStream(jobId)).map(toLogEntry);
