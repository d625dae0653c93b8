import type { DeliveryRecord, JobUpdate, NewEvent, StoredEvent } from './records.js';

// The log: one stream per job, each event at a version within its stream and a global position.
// Every call returns a promise, so a server database can stand behind it. The write-ahead rule does
// not rest on the store being synchronous: the job runner appends an effect's result, and waits
// for the append, before the machine receives it (engine/job-runner.ts). What must commit together
// commits in one append: the events, the job's read model (job-index.ts) and the webhook delivery
// that caused them (delivery-log.ts).

export interface AppendOptions {
  /** The job's read model after these events, updated in the same transaction. */
  job?: JobUpdate;
  /**
   * The webhook delivery these events answer, recorded in the same transaction. A delivery seen
   * before makes the append write nothing and answer `duplicate`.
   */
  delivery?: DeliveryRecord;
}

export interface AppendResult {
  /** The stream's version after the append. */
  version: number;
  /** Global position of the last appended event. */
  position: number;
  /** The append's delivery was seen before: nothing was written. */
  duplicate?: true;
}

export interface EventLog {
  /**
   * Appends events to a stream that must be at `expectedVersion` (0 for a new stream), all or
   * nothing. Rejects with BOOTY_E_VERSION_CONFLICT and writes nothing when the stream is elsewhere.
   */
  append(
    streamId: string,
    expectedVersion: number,
    events: NewEvent[],
    options?: AppendOptions,
  ): Promise<AppendResult>;
  readStream(
    streamId: string,
    options?: { fromVersion?: number; toVersion?: number },
  ): Promise<StoredEvent[]>;
  /**
   * Every event after a global position, in the order they were appended: the way to follow the
   * log (poll with the last position seen). A reader never sees a gap fill in behind it.
   */
  readAll(options?: { after?: number; limit?: number }): Promise<StoredEvent[]>;
  /** The stream's version: 0 for a stream with no events. */
  streamVersion(streamId: string): Promise<number>;
}
