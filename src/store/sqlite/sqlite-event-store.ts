import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { BootyError } from '../../errors.js';
import type {
  AppendOptions,
  AppendResult,
  DeliveryRecord,
  EventStore,
  JobRecord,
  JobUpdate,
  NewEvent,
  StoredEvent,
} from '../event-store.js';
import { chainRow, walkChain } from '../hash-chain.js';
import { chainedRows, type EventRow, type JobRow, toJobRecord, toStoredEvent } from '../store-rows.js';
import { WriteGuard } from '../write-guard.js';
import { migrations } from './migrations.js';
import { type Checkpointer, startCheckpointer } from './wal-checkpointer.js';

export interface SqliteOptions {
  /** How long a writer waits for another process's lock before failing. */
  busyTimeoutMs?: number;
  /** Checkpoint the write-ahead log on a worker thread, off the commit path (long-running servers). */
  backgroundCheckpoint?: boolean;
}

export class SqliteEventStore implements EventStore {
  readonly file: string;
  private readonly db: Database.Database;
  private readonly stmt;
  /** Refuses a call, as a store fault, once the files refuse writes (write-guard.ts: SIGBUS). */
  private readonly guard: WriteGuard;
  private checkpointer: Checkpointer | null = null;
  /** Each stream's chain head after this process's last append to it. */
  private readonly heads = new Map<string, { version: number; hash: string }>();

  constructor(file: string, options: SqliteOptions = {}) {
    this.file = file;
    try {
      if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
      this.db = new Database(file);
      this.db.pragma('journal_mode = WAL');
      // NORMAL is durable across a process crash in WAL mode; only power loss can drop the last commits.
      this.db.pragma('synchronous = NORMAL');
      this.db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5_000}`);
      this.migrate();
      this.guard = new WriteGuard(file);
      if (options.backgroundCheckpoint && file !== ':memory:') {
        this.db.pragma('wal_autocheckpoint = 0');
        this.checkpointer = startCheckpointer(file, {
          onExit: () => {
            if (this.db.open) this.db.pragma('wal_autocheckpoint = 1000');
          },
        });
      }
    } catch (err) {
      if (err instanceof BootyError) throw err;
      throw new BootyError('BOOTY_E_DB_OPEN', { path: file, reason: (err as Error).message }, { cause: err });
    }
    const db = this.db;
    this.stmt = {
      // One statement checks the expected version and inserts, so a single-event append needs no
      // explicit transaction: SQLite runs it atomically under the write lock.
      insertFirst: db.prepare(`
        INSERT INTO events (stream_id, version, type, schema_version, data, state, meta, at, hash)
        SELECT @streamId, @version, @type, @schemaVersion, @data, @state, @meta, @at, @hash
        WHERE COALESCE((SELECT max(version) FROM events WHERE stream_id = @streamId), 0) = @expected`),
      insertNext: db.prepare(`
        INSERT INTO events (stream_id, version, type, schema_version, data, state, meta, at, hash)
        VALUES (@streamId, @version, @type, @schemaVersion, @data, @state, @meta, @at, @hash)`),
      version: db.prepare('SELECT COALESCE(max(version), 0) AS v FROM events WHERE stream_id = ?').pluck(),
      hashAt: db.prepare('SELECT hash FROM events WHERE stream_id = ? AND version = ?').pluck(),
      readStream: db.prepare(
        'SELECT * FROM events WHERE stream_id = ? AND version >= ? AND version <= ? ORDER BY version',
      ),
      readAll: db.prepare('SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?'),
      upsertJob: db.prepare(`
        INSERT INTO jobs (job_id, repo, issue, state, attempts, final, outcome, tokens, version, branch, pr, created_at, updated_at)
        VALUES (@jobId, @repo, @issue, @state, @attempts, @final, @outcome, @tokens, @version, @branch, @pr, @at, @at)
        ON CONFLICT (job_id) DO UPDATE SET state = excluded.state, attempts = excluded.attempts,
          final = excluded.final, outcome = excluded.outcome, tokens = excluded.tokens,
          version = excluded.version, branch = COALESCE(excluded.branch, branch),
          pr = COALESCE(excluded.pr, pr), updated_at = excluded.updated_at`),
      getJob: db.prepare('SELECT * FROM jobs WHERE job_id = ?'),
      listJobs: db.prepare('SELECT * FROM jobs ORDER BY created_at, job_id'),
      listUnfinished: db.prepare('SELECT * FROM jobs WHERE final = 0 ORDER BY created_at, job_id'),
      activeForIssue: db.prepare(
        'SELECT * FROM jobs WHERE repo = ? AND issue = ? AND final = 0 ORDER BY created_at LIMIT 1',
      ),
      activeForPr: db.prepare(
        "SELECT * FROM jobs WHERE repo = @repo AND (final = 0 OR state = 'damaged') AND (pr = @pr OR branch = @branch) ORDER BY final, created_at DESC LIMIT 1",
      ),
      forIssue: db.prepare('SELECT * FROM jobs WHERE repo = ? AND issue = ? ORDER BY created_at, job_id'),
      unreported: db.prepare('SELECT * FROM jobs WHERE reported_version < version ORDER BY created_at'),
      markDamaged: db.prepare(
        "UPDATE jobs SET state = 'damaged', final = 1, outcome = 'damaged', reported_version = 0, updated_at = ? WHERE job_id = ? AND state <> 'damaged'",
      ),
      markReported: db.prepare(
        'UPDATE jobs SET reported_version = max(reported_version, ?) WHERE job_id = ?',
      ),
      countByState: db.prepare('SELECT state, count(*) AS n FROM jobs GROUP BY state'),
      probeInsert: db.prepare('INSERT INTO write_probe (data) VALUES (zeroblob(65536))'),
      probeDelete: db.prepare('DELETE FROM write_probe'),
      recordDelivery: db.prepare(`
        INSERT OR IGNORE INTO deliveries (delivery_id, event, action, outcome, job_id, received_at)
        VALUES (@deliveryId, @event, @action, @outcome, @jobId, @at)`),
      knownDelivery: db.prepare('SELECT 1 FROM deliveries WHERE delivery_id = ?').pluck(),
      deliveryLook: db.prepare('SELECT taken_at AS takenAt, last_look AS lastLook FROM delivery_look'),
      takeDeliveryLook: db.prepare(
        'INSERT INTO delivery_look (one, taken_at) VALUES (1, ?) ON CONFLICT (one) DO UPDATE SET taken_at = excluded.taken_at',
      ),
      finishDeliveryLook: db.prepare(`
        INSERT INTO delivery_look (one, taken_at, last_look) VALUES (1, @at, @at)
        ON CONFLICT (one) DO UPDATE SET last_look = max(COALESCE(last_look, 0), excluded.last_look)`),
    };
  }

  /** The open database, for tables kept beside the log in the same file (sqlite-api-tokens.ts). */
  connection(): Database.Database {
    return this.db;
  }

  private migrate() {
    const current = this.db.pragma('user_version', { simple: true }) as number;
    if (current >= migrations.length) return;
    this.db
      .transaction(() => {
        for (const sql of migrations.slice(current)) this.db.exec(sql);
        this.db.pragma(`user_version = ${migrations.length}`);
      })
      .immediate();
  }

  async append(
    streamId: string,
    expectedVersion: number,
    events: NewEvent[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    this.guard.check('write');
    return this.appendNow(streamId, expectedVersion, events, options);
  }

  private appendNow(
    streamId: string,
    expectedVersion: number,
    events: NewEvent[],
    { job, delivery }: AppendOptions,
  ): AppendResult {
    if (events.length === 0) return { version: expectedVersion, position: 0 };
    const at = Date.now();
    const { rows, head } = chainedRows(streamId, expectedVersion, events, {
      head: this.chainHead(streamId, expectedVersion),
      at,
    });
    const write = (): AppendResult => {
      if (delivery && !this.recordDelivery(delivery))
        return { version: this.versionNow(streamId), position: 0, duplicate: true };
      const first = this.stmt.insertFirst.run({ ...rows[0], expected: expectedVersion });
      if (first.changes === 0) this.conflict(streamId, expectedVersion);
      let position = Number(first.lastInsertRowid);
      for (const row of rows.slice(1)) position = Number(this.stmt.insertNext.run(row).lastInsertRowid);
      const version = expectedVersion + rows.length;
      if (job) this.upsertJob(streamId, version, at, job);
      this.heads.set(streamId, { version, hash: head });
      return { version, position };
    };
    try {
      return rows.length === 1 && !job && !delivery ? write() : this.db.transaction(write).immediate();
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE')
        this.conflict(streamId, expectedVersion);
      throw err;
    }
  }

  /**
   * The chain's value after event `version` of a stream: remembered from this process's own last
   * append, else read (and, for a stream from before the chain, computed) from the rows.
   */
  private chainHead(streamId: string, version: number): string {
    if (version === 0) return '';
    const known = this.heads.get(streamId);
    if (known?.version === version) return known.hash;
    const last = this.stmt.hashAt.get(streamId, version) as Buffer | null | undefined;
    if (last) return last.toString('hex');
    return walkChain(this.readRows(streamId, { toVersion: version }).map(chainRow)).head;
  }

  async markDamaged(jobId: string): Promise<boolean> {
    this.guard.check('write');
    return this.stmt.markDamaged.run(Date.now(), jobId).changes === 1;
  }

  private conflict(streamId: string, expected: number): never {
    throw new BootyError('BOOTY_E_VERSION_CONFLICT', {
      streamId,
      expected,
      actual: this.versionNow(streamId),
    });
  }

  private upsertJob(jobId: string, version: number, at: number, job: JobUpdate) {
    const row = this.stmt.getJob.get(jobId) as JobRow | undefined;
    const existing = row ? toJobRecord(row) : null;
    const repo = job.repo ?? existing?.repo;
    const issue = job.issue ?? existing?.issue;
    if (repo === undefined || issue === undefined) {
      throw new BootyError('BOOTY_E_EVENT_INVALID', {
        type: 'JobRequested',
        reason: `the first append to job ${jobId} must name its repo and issue`,
      });
    }
    this.stmt.upsertJob.run({
      jobId,
      repo,
      issue,
      state: job.state,
      attempts: job.attempts,
      final: job.final ? 1 : 0,
      outcome: job.outcome,
      tokens: job.tokens,
      version,
      branch: job.branch ?? null,
      pr: job.pr ?? null,
      at,
    });
  }

  async readStream(
    streamId: string,
    options: { fromVersion?: number; toVersion?: number } = {},
  ): Promise<StoredEvent[]> {
    this.guard.check('read');
    return this.readRows(streamId, options);
  }

  private readRows(streamId: string, options: { fromVersion?: number; toVersion?: number }): StoredEvent[] {
    const rows = this.stmt.readStream.all(
      streamId,
      options.fromVersion ?? 1,
      options.toVersion ?? Number.MAX_SAFE_INTEGER,
    ) as EventRow[];
    return rows.map(toStoredEvent);
  }

  async readAll(options: { after?: number; limit?: number } = {}): Promise<StoredEvent[]> {
    this.guard.check('read');
    const rows = this.stmt.readAll.all(options.after ?? 0, options.limit ?? -1) as EventRow[];
    return rows.map(toStoredEvent);
  }

  async streamVersion(streamId: string): Promise<number> {
    this.guard.check('read');
    return this.versionNow(streamId);
  }

  private versionNow(streamId: string): number {
    return this.stmt.version.get(streamId) as number;
  }

  async getJob(jobId: string): Promise<JobRecord | null> {
    this.guard.check('read');
    const row = this.stmt.getJob.get(jobId) as JobRow | undefined;
    return row ? toJobRecord(row) : null;
  }

  async listJobs(filter: { unfinished?: boolean } = {}): Promise<JobRecord[]> {
    this.guard.check('read');
    const stmt = filter.unfinished ? this.stmt.listUnfinished : this.stmt.listJobs;
    return (stmt.all() as JobRow[]).map(toJobRecord);
  }

  async findActiveJob(repo: string, issue: number): Promise<JobRecord | null> {
    this.guard.check('read');
    const row = this.stmt.activeForIssue.get(repo, issue) as JobRow | undefined;
    return row ? toJobRecord(row) : null;
  }

  async findJobForPr(
    repo: string,
    ref: { pr?: number | null; branch?: string | null },
  ): Promise<JobRecord | null> {
    this.guard.check('read');
    const row = this.stmt.activeForPr.get({ repo, pr: ref.pr ?? null, branch: ref.branch ?? null }) as
      | JobRow
      | undefined;
    return row ? toJobRecord(row) : null;
  }

  async jobsForIssue(repo: string, issue: number): Promise<JobRecord[]> {
    this.guard.check('read');
    return (this.stmt.forIssue.all(repo, issue) as JobRow[]).map(toJobRecord);
  }

  async listUnreported(): Promise<JobRecord[]> {
    this.guard.check('read');
    return (this.stmt.unreported.all() as JobRow[]).map(toJobRecord);
  }

  async markReported(jobId: string, version: number): Promise<void> {
    this.guard.check('write');
    this.stmt.markReported.run(version, jobId);
  }

  async countJobsByState(): Promise<Record<string, number>> {
    this.guard.check('read');
    const rows = this.stmt.countByState.all() as { state: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.state, r.n]));
  }

  async probeWritable(): Promise<void> {
    this.guard.check('write');
    // A commit that needs room for a large event's pages: a full disk fails it, as it fails appends.
    this.db
      .transaction(() => {
        this.stmt.probeInsert.run();
        this.stmt.probeDelete.run();
      })
      .immediate();
  }

  async recordDeliveries(deliveries: DeliveryRecord[]): Promise<boolean[]> {
    this.guard.check('write');
    if (deliveries.length === 0) return [];
    return this.db.transaction(() => deliveries.map((d) => this.recordDelivery(d))).immediate();
  }

  async unknownDeliveries(deliveryIds: string[]): Promise<string[]> {
    this.guard.check('read');
    return [...new Set(deliveryIds)].filter((id) => this.stmt.knownDelivery.get(id) === undefined);
  }

  async takeDeliveryLook(now: number, gapMs: number): Promise<{ lastLook: number | null } | null> {
    this.guard.check('write');
    return this.db
      .transaction(() => {
        const row = this.stmt.deliveryLook.get() as { takenAt: number; lastLook: number | null } | undefined;
        if (row && gapMs > 0 && row.takenAt > now - gapMs) return null;
        this.stmt.takeDeliveryLook.run(now);
        return { lastLook: row?.lastLook ?? null };
      })
      .immediate();
  }

  async finishDeliveryLook(mark: number): Promise<void> {
    this.guard.check('write');
    this.stmt.finishDeliveryLook.run({ at: mark });
  }

  private recordDelivery(delivery: DeliveryRecord): boolean {
    return this.stmt.recordDelivery.run({ ...delivery, at: Date.now() }).changes === 1;
  }

  /**
   * Closes the database, the background checkpointer's connection first: once this resolves the
   * file is whole and at rest, its write-ahead log folded in and gone, so it can be copied or
   * opened by the next process. (The checkpointer finishing on its own left its connection open a
   * moment longer, and the log vanished under a copy made just after.)
   */
  async close(): Promise<void> {
    const checkpointer = this.checkpointer;
    this.checkpointer = null;
    await checkpointer?.stop();
    // The last connection's close checkpoints through the mapped index: with that refused, the
    // process's exit lets go of the file instead, and the log keeps what was not folded in.
    if (this.db.open && this.guard.indexWritable) this.db.close();
  }
}
