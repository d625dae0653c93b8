// The event store contract. Every call returns a promise, so a server database can stand behind
// it. The write-ahead rule does not rest on the store being synchronous: the job runner appends an
// effect's result, and waits for the append, before the machine receives it (engine/job-runner.ts).
// What must commit together commits in one call: an append with its job read model and the
// webhook delivery that caused it.

import type { JobLeases } from './job-leases.js';

export interface EventMeta {
  machineVersion?: number;
  deliveryId?: string;
  correlationId?: string;
  attempt?: number;
  /** Model tokens this event's effect used, for the replay timeline. */
  tokens?: { input: number; output: number; cacheRead: number; cacheWrite: number };
}

export interface NewEvent {
  type: string;
  /** The version of the type's schema the data is in (default 1). */
  version?: number;
  data: Record<string, unknown>;
  /** The state value the job reached by processing this event, so a replay can check itself. */
  state?: string | null;
  meta?: EventMeta;
}

export interface StoredEvent {
  position: number;
  streamId: string;
  /** 1-based position of the event within its stream. */
  version: number;
  type: string;
  schemaVersion: number;
  data: Record<string, unknown>;
  state: string | null;
  meta: EventMeta;
  /** Epoch milliseconds when it was appended. */
  at: number;
  /** The hash chain through this row (hash-chain.ts); null for rows written before it. */
  hash: string | null;
}

/** The read model of one job, kept in step with its stream in the same transaction. */
export interface JobRecord {
  jobId: string;
  repo: string;
  issue: number;
  state: string;
  attempts: number;
  final: boolean;
  outcome: string | null;
  tokens: number;
  version: number;
  /** The job's branch and pull request, once known: webhooks about them find the job. */
  branch: string | null;
  pr: number | null;
  /** The stream version the issue's progress comment last showed. */
  reportedVersion: number;
  createdAt: number;
  updatedAt: number;
}

export interface JobUpdate {
  repo?: string;
  issue?: number;
  state: string;
  attempts: number;
  final: boolean;
  outcome: string | null;
  tokens: number;
  branch?: string;
  pr?: number | null;
}

export interface DeliveryRecord {
  deliveryId: string;
  event: string;
  action: string | null;
  outcome: string;
  jobId: string | null;
}

export interface AppendResult {
  /** The stream's version after the append. */
  version: number;
  /** Global position of the last appended event. */
  position: number;
  /** The append's delivery was seen before: nothing was written. */
  duplicate?: true;
}

export interface AppendOptions {
  /** The job's read model after these events, updated in the same transaction. */
  job?: JobUpdate;
  /**
   * The webhook delivery these events answer, recorded in the same transaction. A delivery seen
   * before makes the append write nothing and answer `duplicate`.
   */
  delivery?: DeliveryRecord;
}

export interface EventStore {
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
  streamVersion(streamId: string): Promise<number>;

  getJob(jobId: string): Promise<JobRecord | null>;
  listJobs(filter?: { unfinished?: boolean }): Promise<JobRecord[]>;
  findActiveJob(repo: string, issue: number): Promise<JobRecord | null>;
  /**
   * The unfinished job whose pull request has this number, or whose branch this is; else a damaged
   * one (markDamaged), which a delivery about its PR must find to be answered so.
   */
  findJobForPr(repo: string, ref: { pr?: number | null; branch?: string | null }): Promise<JobRecord | null>;
  /** Every job ever requested for an issue, oldest first. */
  jobsForIssue(repo: string, issue: number): Promise<JobRecord[]>;
  /** Jobs whose progress comment lags their stream. */
  listUnreported(): Promise<JobRecord[]>;
  markReported(jobId: string, version: number): Promise<void>;
  /**
   * Takes a job whose log does not check out out of the running: state `damaged`, final, its
   * report owed (listUnreported) until markReported says the damage was told on its issue. True
   * when this call marked it, false when it was marked already (another worker or delivery found
   * it first).
   */
  markDamaged(jobId: string): Promise<boolean>;

  /** How many jobs stand in each state, for metrics. */
  countJobsByState(): Promise<Record<string, number>>;
  /** Commits a write the size of a large event and undoes it; rejects when the store takes no writes. */
  probeWritable(): Promise<void>;

  /** Present when many workers share the database: they lease its jobs (src/workers). */
  readonly leases?: JobLeases;

  /** Records deliveries that start nothing, in one commit; for each, false when it was seen before. */
  recordDeliveries(deliveries: DeliveryRecord[]): Promise<boolean[]>;
  /** Of these delivery ids (GitHub's GUIDs), the ones never recorded, in the order given, once each. */
  unknownDeliveries(deliveryIds: string[]): Promise<string[]>;
  /**
   * The catch-up of missed webhook deliveries (gateway/delivery-catch-up.ts), shared by every
   * worker on the database: takes the turn to look when nobody took it in the `gapMs` before `now`
   * (0: take it anyway), answering the mark the last finished look left (null: never); null when
   * another took it.
   */
  takeDeliveryLook(now: number, gapMs: number): Promise<{ lastLook: number | null } | null>;
  /**
   * A look went through, having listed deliveries up to `mark` (GitHub's time, epoch ms): the next
   * one goes back to it, not further. The mark never moves back.
   */
  finishDeliveryLook(mark: number): Promise<void>;
  close(): Promise<void>;
}
