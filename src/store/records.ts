// The records the store's contracts take and give (event-log.ts, job-index.ts, delivery-log.ts):
// an event as appended and as stored, a job's read model and its update, a webhook delivery.

export interface EventMeta {
  machineVersion?: number;
  deliveryId?: string;
  correlationId?: string;
  attempt?: number;
  /** Model tokens this event's effect used, for the replay timeline. */
  tokens?: { input: number; output: number; cacheRead: number; cacheWrite: number };
  /** What those tokens cost in dollars, by the price table (claude/price-table.ts). */
  usd?: number;
  /** The worker that wrote the event (BOOTY_WORKER_ID, else host:pid); absent in older logs. */
  worker?: string;
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
  /** The worker running the job now, and since when (epoch ms); null when none runs it. */
  heldBy: string | null;
  heldSince: number | null;
  createdAt: number;
  updatedAt: number;
}

/** A job's read model after an append; the first append to a job names its repo and issue. */
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
  /** The GitHub App installation the job's request came through (the first append's). */
  installation?: number | null;
}

/** A webhook delivery, by GitHub's GUID, and what booty made of it. */
export interface DeliveryRecord {
  deliveryId: string;
  event: string;
  action: string | null;
  outcome: string;
  jobId: string | null;
}
