import type { DeliveryLog } from './delivery-log.js';
import type { EventLog } from './event-log.js';
import type { JobIndex } from './job-index.js';
import type { JobLeases } from './job-leases.js';

// The whole store, as a backend opens it (main/open-store.ts): the log, the jobs read model and
// the delivery log, which one append writes in one transaction, so one class per backend
// implements all three (sqlite/, postgres/); and the store's own life: its health probe, its
// close, and on a shared database the job leases. A part that needs one of these asks for that
// contract, not for the whole.

export interface EventStore extends EventLog, JobIndex, DeliveryLog {
  /** Commits a write the size of a large event and undoes it; rejects when the store takes no writes. */
  probeWritable(): Promise<void>;
  /** Present when many workers share the database: they lease its jobs (src/engine). */
  readonly leases?: JobLeases;
  close(): Promise<void>;
}
