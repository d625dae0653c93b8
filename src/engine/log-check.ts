import { BootyError, isBootyError } from '../errors.js';
import type { foldChecked, JobSnapshot } from '../machines/fold.js';
import type { EventStore } from '../store/event-store.js';
import { brokenAt } from '../store/hash-chain.js';
import { type LogEntry, toLogEntry } from '../store/job-log.js';
import type { StoredEvent } from '../store/records.js';
import { eventLabel } from './timeline.js';

// A job's log checked as `booty replay --verify` checks it, before booty acts on it: the hash
// chain, every row against the catalogue, and every recorded state against one fold. Boot checks
// every unfinished job so, parked ones included, and a runner checks the log it folds, so a log
// edited under a running server is caught at the next event for its job too. A log that does not
// check out is damage: its job takes no event and runs no effect.
//
// Rows of a type or version this booty does not know, in a chain that holds, are a newer booty's
// writing, not damage: that error is thrown as it is, and the job waits for a booty that reads it.

export type CheckedLog = { damage: null; events: LogEntry[]; snapshot: JobSnapshot } | { damage: BootyError };

export function checkLog(jobId: string, rows: readonly StoredEvent[], fold: typeof foldChecked): CheckedLog {
  // A job is created with its first event, in one commit: a job with none lost them all.
  const tampered =
    rows.length === 0 ? { seq: 1, reason: 'event 1 is missing (the log holds no events)' } : brokenAt(rows);
  if (tampered) return { damage: new BootyError('BOOTY_E_LOG_TAMPERED', { jobId, ...tampered }) };
  let events: LogEntry[];
  try {
    events = rows.map(toLogEntry);
  } catch (err) {
    if (newerWriting(err)) throw err;
    return {
      damage: isBootyError(err)
        ? err
        : new BootyError('BOOTY_E_EVENT_INVALID', {
            stream: jobId,
            seq: '?',
            type: 'log',
            reason: String(err),
          }),
    };
  }
  let folded: ReturnType<typeof foldChecked>;
  try {
    folded = fold(events);
  } catch (err) {
    // A log that does not start with its request.
    if (isBootyError(err, 'BOOTY_E_EVENT_INVALID')) return { damage: err };
    throw err;
  }
  const { snapshot, divergence } = folded;
  if (divergence) {
    return {
      damage: new BootyError('BOOTY_E_REPLAY_DIVERGED', {
        seq: divergence.seq,
        type: eventLabel(events[divergence.seq - 1]!),
        recorded: divergence.recorded,
        folded: divergence.state,
      }),
    };
  }
  return { damage: null, events, snapshot };
}

/** A row of a type or version this booty does not know: a newer booty wrote it. */
export const newerWriting = (err: unknown) =>
  isBootyError(err, 'BOOTY_E_EVENT_UNKNOWN_TYPE') || isBootyError(err, 'BOOTY_E_EVENT_UNKNOWN_VERSION');

/** The job's log, read and checked. */
export async function readCheckedLog(
  store: Pick<EventStore, 'readStream'>,
  jobId: string,
): Promise<CheckedLog> {
  // The machine (and xstate) loads with the first log folded, not at start-up.
  const { foldChecked } = await import('../machines/fold.js');
  return checkLog(jobId, await store.readStream(jobId), foldChecked);
}

/** The damage a runner found in its job's log (BOOTY_E_JOB_DAMAGED carries it), or null. */
export const damageIn = (err: unknown): BootyError | null =>
  isBootyError(err, 'BOOTY_E_JOB_DAMAGED') && isBootyError(err.cause) ? err.cause : null;
