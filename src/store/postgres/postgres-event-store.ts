import type { Pool, PoolClient } from 'pg';
import { BootyError } from '../../errors.js';
import type { AppendOptions, AppendResult } from '../event-log.js';
import type { EventStore } from '../event-store.js';
import type { JobLeases, LeaseSettings } from '../job-leases.js';
import type { EventRow } from '../read-event.js';
import type { DeliveryRecord, JobRecord, NewEvent, StoredEvent } from '../records.js';
import { chainedRows, toStoredEvent } from '../store-rows.js';
import { PgBossLeases } from './pg-boss-leases.js';
import { PostgresDeliveryLog } from './postgres-delivery-log.js';
import { PostgresJobIndex } from './postgres-job-index.js';
import { connect, type PoolOptions } from './postgres-pool.js';
import { redactUrl } from './postgres-url.js';
import { q } from './queries.js';
import { inTransaction } from './transaction.js';

// The EventStore on PostgreSQL, for many workers on one database: the log here, the jobs read model
// and the delivery log beside it, each passing the same contract suite as the SQLite store's. A
// stream's versions are UNIQUE (stream_id, version), deliveries UNIQUE
// by id. An append is one call of the booty_append function (migrations/001-init.sql): the
// delivery, the version check, the rows and the jobs read model commit together or not at all,
// in one round trip. The hash chain is computed here, as the SQLite store computes it.
//
// The global order is a serialised counter, not a transaction-id high-water mark. Every append
// takes its positions from event_head's one row and holds that row's lock until it commits, so
// positions become visible in the order they were handed out: a reader that has seen position N
// never later finds one below it. A failed append hands its positions back, so there are no holes
// either. The cost is that appends commit one at a time, with no group commit: from 8 writers, a
// quarter of what raw inserts reach (bench/postgres-store.bench.ts), some thousands a second, far
// above what jobs that wait minutes on a model write. The alternative, filtering rows by pg_snapshot_xmin(pg_current_snapshot()) and
// ordering them by (transaction id, position), lets appends commit together, but makes every
// reader wait on the oldest transaction open anywhere on the server, a psql session or a backup
// included, and turns a position into a pair.

export class PostgresEventStore implements EventStore {
  /** Opens a store and waits until it is connected and its schema current. */
  static async open(url: string, options: PoolOptions = {}): Promise<PostgresEventStore> {
    const store = new PostgresEventStore(url, options);
    await store.pool;
    return store;
  }

  /** The database's URL without its password. */
  readonly location: string;
  /** Jobs leased to the workers on this database (a serve's store); none for a command's. */
  readonly leases?: JobLeases;
  private readonly pool: Promise<Pool>;
  private closing: Promise<void> | null = null;
  /** The jobs read model and the delivery log; booty_append writes both in the append's transaction. */
  private readonly jobs = new PostgresJobIndex(() => this.db());
  private readonly deliveries = new PostgresDeliveryLog(() => this.db());
  /** Each stream's chain head after this process's last append to it. */
  private readonly heads = new Map<string, { version: number; hash: string }>();

  /**
   * Opening connects and migrates in the background, so that opening a store stays synchronous
   * (main/compose.ts): every call waits for it, and rejects with the reason when it failed.
   */
  constructor(url: string, options: PoolOptions & { leases?: LeaseSettings } = {}) {
    this.location = redactUrl(url);
    this.pool = connect(url, options);
    this.pool.catch(() => undefined);
    if (options.leases) this.leases = new PgBossLeases(url, options.leases);
  }

  /** The pool once connected and migrated, for tables kept beside the log (postgres-api-tokens.ts). */
  connection(): Promise<Pool> {
    return this.db();
  }

  private async db(): Promise<Pool> {
    if (this.closing) throw new Error(`the event store at ${this.location} is closed`);
    return this.pool;
  }

  async append(
    streamId: string,
    expectedVersion: number,
    events: NewEvent[],
    { job, delivery }: AppendOptions = {},
  ): Promise<AppendResult> {
    if (events.length === 0) return { version: expectedVersion, position: 0 };
    const pool = await this.db();
    const at = Date.now();
    const { rows, head } = chainedRows(streamId, expectedVersion, events, {
      head: await this.chainHead(pool, streamId, expectedVersion),
      at,
    });
    try {
      const { rows: answer } = await pool.query<AppendRow>({
        ...q.append,
        values: [
          streamId,
          expectedVersion,
          at,
          rows.map((r) => r.type),
          rows.map((r) => r.schemaVersion),
          rows.map((r) => r.data),
          rows.map((r) => r.state),
          rows.map((r) => r.meta),
          rows.map((r) => r.hash),
          job ? JSON.stringify(job) : null,
          delivery ? JSON.stringify(delivery) : null,
        ],
      });
      const { was_duplicate, new_version: version, last_position: position } = answer[0]!;
      if (was_duplicate) return { version, position: 0, duplicate: true };
      this.heads.set(streamId, { version, hash: head });
      return { version, position };
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'BT409' || isVersionClash(err)) throw await this.conflict(pool, streamId, expectedVersion);
      if (code === '23505' && (err as { constraint?: string }).constraint === 'jobs_one_unfinished_per_issue')
        throw new BootyError('BOOTY_E_ISSUE_HAS_JOB', { repo: job?.repo ?? '?', issue: job?.issue ?? '?' });
      if (code === 'BT400')
        throw new BootyError('BOOTY_E_EVENT_INVALID', {
          type: 'JobRequested',
          reason: `the first append to job ${streamId} must name its repo and issue`,
        });
      throw err;
    }
  }

  /** The chain's value after event `version` of a stream: remembered from the last append here, or read. */
  private async chainHead(pool: Pool, streamId: string, version: number): Promise<string> {
    if (version === 0) return '';
    const known = this.heads.get(streamId);
    if (known?.version === version) return known.hash;
    const { rows } = await pool.query<{ hash: Buffer }>({ ...q.hashAt, values: [streamId, version] });
    if (!rows[0]) throw await this.conflict(pool, streamId, version);
    return rows[0].hash.toString('hex');
  }

  private async conflict(pool: Pool, streamId: string, expected: number): Promise<BootyError> {
    return new BootyError('BOOTY_E_VERSION_CONFLICT', {
      streamId,
      expected,
      actual: await versionOf(pool, streamId),
    });
  }

  async readStream(
    streamId: string,
    options: { fromVersion?: number; toVersion?: number } = {},
  ): Promise<StoredEvent[]> {
    const { rows } = await (await this.db()).query<EventRow>({
      ...q.readStream,
      values: [streamId, options.fromVersion ?? 1, options.toVersion ?? 2_147_483_647],
    });
    return rows.map(toStoredEvent);
  }

  async readAll(options: { after?: number; limit?: number } = {}): Promise<StoredEvent[]> {
    const { rows } = await (await this.db()).query<EventRow>({
      ...q.readAll,
      values: [options.after ?? 0, options.limit ?? null],
    });
    return rows.map(toStoredEvent);
  }

  async streamVersion(streamId: string): Promise<number> {
    return versionOf(await this.db(), streamId);
  }

  async probeWritable(): Promise<void> {
    // A commit that carries a large event's bytes: a server that takes no writes fails it.
    await inTransaction(await this.db(), async (client) => {
      await client.query('INSERT INTO write_probe (data) VALUES ($1)', [Buffer.alloc(65_536)]);
      await client.query('DELETE FROM write_probe');
    });
  }

  // The jobs read model (postgres-job-index.ts) and the delivery log (postgres-delivery-log.ts).

  getJob(jobId: string): Promise<JobRecord | null> {
    return this.jobs.getJob(jobId);
  }

  listJobs(filter?: { unfinished?: boolean }): Promise<JobRecord[]> {
    return this.jobs.listJobs(filter);
  }

  findActiveJob(repo: string, issue: number): Promise<JobRecord | null> {
    return this.jobs.findActiveJob(repo, issue);
  }

  findJobForPr(repo: string, ref: { pr?: number | null; branch?: string | null }): Promise<JobRecord | null> {
    return this.jobs.findJobForPr(repo, ref);
  }

  jobsForIssue(repo: string, issue: number): Promise<JobRecord[]> {
    return this.jobs.jobsForIssue(repo, issue);
  }

  listUnreported(): Promise<JobRecord[]> {
    return this.jobs.listUnreported();
  }

  markReported(jobId: string, version: number): Promise<void> {
    return this.jobs.markReported(jobId, version);
  }

  markDamaged(jobId: string): Promise<boolean> {
    return this.jobs.markDamaged(jobId);
  }

  countJobsByState(): Promise<Record<string, number>> {
    return this.jobs.countJobsByState();
  }

  markHeld(jobId: string, worker: string): Promise<void> {
    return this.jobs.markHeld(jobId, worker);
  }

  markLetGo(jobId: string, worker: string): Promise<void> {
    return this.jobs.markLetGo(jobId, worker);
  }

  clearHeld(): Promise<void> {
    return this.jobs.clearHeld();
  }

  spentSince(since: number, installation: number | null): Promise<number> {
    return this.jobs.spentSince(since, installation);
  }

  recordDeliveries(deliveries: DeliveryRecord[]): Promise<boolean[]> {
    return this.deliveries.recordDeliveries(deliveries);
  }

  unknownDeliveries(deliveryIds: string[]): Promise<string[]> {
    return this.deliveries.unknownDeliveries(deliveryIds);
  }

  takeDeliveryLook(now: number, gapMs: number): Promise<{ lastLook: number | null } | null> {
    return this.deliveries.takeDeliveryLook(now, gapMs);
  }

  finishDeliveryLook(mark: number): Promise<void> {
    return this.deliveries.finishDeliveryLook(mark);
  }

  /** Ends the pool once the calls under way have finished; later calls reject. */
  async close(): Promise<void> {
    this.closing ??= Promise.all([
      this.leases?.close(),
      this.pool.then(
        (pool) => pool.end(),
        () => undefined,
      ),
    ]).then(() => undefined);
    return this.closing;
  }
}

/** What booty_append (migrations/001-init.sql) answers. */
interface AppendRow {
  was_duplicate: boolean;
  new_version: number;
  last_position: number;
}

// The unique index's word for an append that lost a race the version check did not see.
const isVersionClash = (err: unknown) =>
  (err as { code?: string; constraint?: string }).code === '23505' &&
  (err as { constraint?: string }).constraint === 'events_stream_version';

async function versionOf(db: Pool | PoolClient, streamId: string): Promise<number> {
  const { rows } = await db.query<{ v: number }>({ ...q.version, values: [streamId] });
  return rows[0]!.v;
}
