// The event store contract. It is synchronous on purpose: the job runner appends from inside
// XState's inspection hook, which runs before the actor processes the event, so the write must be
// finished when the hook returns. That is what makes the log write-ahead.

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
}

export interface EventStore {
  /**
   * Appends events to a stream that must be at `expectedVersion` (0 for a new stream), all or
   * nothing. Throws BOOTY_E_VERSION_CONFLICT and writes nothing when the stream is elsewhere.
   * With `job`, the job's read model is updated in the same transaction.
   */
  append(streamId: string, expectedVersion: number, events: NewEvent[], job?: JobUpdate): AppendResult;
  readStream(streamId: string, options?: { fromVersion?: number; toVersion?: number }): StoredEvent[];
  /** Every event after a global position, in the order they were appended. */
  readAll(options?: { after?: number; limit?: number }): StoredEvent[];
  streamVersion(streamId: string): number;

  getJob(jobId: string): JobRecord | null;
  listJobs(filter?: { unfinished?: boolean }): JobRecord[];
  findActiveJob(repo: string, issue: number): JobRecord | null;
  /** Every job ever requested for an issue, oldest first. */
  jobsForIssue(repo: string, issue: number): JobRecord[];
  /** Jobs whose progress comment lags their stream. */
  listUnreported(): JobRecord[];
  markReported(jobId: string, version: number): void;
  /** Takes a job whose log does not check out out of the running: state `damaged`, final. */
  markDamaged(jobId: string): void;

  /** How many jobs stand in each state, for metrics. */
  countJobsByState(): Record<string, number>;
  /** Throws unless this process can take the database's write lock right now. */
  probeWritable(): void;

  /** Records a webhook delivery; false when it was seen before. */
  recordDelivery(delivery: DeliveryRecord): boolean;
  /** Runs fn in one transaction; appends inside it commit or roll back together. */
  transaction<T>(fn: () => T): T;
  close(): void;
}
