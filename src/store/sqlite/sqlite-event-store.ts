import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { BootyError } from '../../errors.js';
import type { AppendOptions, AppendResult } from '../event-log.js';
import type { EventStore } from '../event-store.js';
import { chainRow, walkChain } from '../hash-chain.js';
import type { EventRow } from '../read-event.js';
import type { DeliveryRecord, JobRecord, NewEvent, StoredEvent } from '../records.js';
import { type ChainedRow, chainedRows, toStoredEvent } from '../store-rows.js';
import { WriteGuard } from '../write-guard.js';
import { migrations } from './migrations.js';
import { SqliteDeliveryLog } from './sqlite-delivery-log.js';
import { SqliteJobIndex } from './sqlite-job-index.js';
import { type Checkpointer, startCheckpointer } from './wal-checkpointer.js';

// The EventStore on SQLite, the embedded default: one process writes a database file (db-lock.ts).
// The log is here; the jobs read model and the delivery log are beside it, on the same connection,
// so an append writes all three in one transaction.

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
  /** The jobs read model and the delivery log: an append writes them in its own transaction. */
  private readonly jobs: SqliteJobIndex;
  private readonly deliveries: SqliteDeliveryLog;
  /** Refuses a call, as a store fault, once the files refuse writes (write-guard.ts: SIGBUS). */
  private readonly guard: WriteGuard;
  private checkpointer: Checkpointer | null = null;
  /**
   * The checkpointer starts with the first write (an append, or a delivery recorded): its thread
   * (a V8 isolate of its own, some 12 MB) and its timer are for a store that writes, and an idle
   * serve writes nothing. Until then SQLite's own checkpoints stand in, after 1,000 pages of log.
   */
  private checkpointOnWrite = false;
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
      this.checkpointOnWrite = options.backgroundCheckpoint === true && file !== ':memory:';
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
      // Bound by position: better-sqlite3 looks each named parameter up on the row, a cost per append.
      insertNext: db.prepare(`
        INSERT INTO events (stream_id, version, type, schema_version, data, state, meta, at, hash)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      version: db.prepare('SELECT COALESCE(max(version), 0) AS v FROM events WHERE stream_id = ?').pluck(),
      hashAt: db.prepare('SELECT hash FROM events WHERE stream_id = ? AND version = ?').pluck(),
      readStream: db.prepare(
        'SELECT * FROM events WHERE stream_id = ? AND version >= ? AND version <= ? ORDER BY version',
      ),
      readAll: db.prepare('SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?'),
      probeInsert: db.prepare('INSERT INTO write_probe (data) VALUES (zeroblob(65536))'),
      probeDelete: db.prepare('DELETE FROM write_probe'),
    };
    this.jobs = new SqliteJobIndex(db, this.guard);
    this.deliveries = new SqliteDeliveryLog(db, this.guard);
  }

  /** The open database, for tables kept beside the log in the same file (sqlite-api-tokens.ts). */
  connection(): Database.Database {
    return this.db;
  }

  private migrate() {
    const current = this.db.pragma('user_version', { simple: true }) as number;
    // A newer booty migrated this file: its rows may mean what this one cannot read.
    if (current > migrations.length)
      throw new BootyError('BOOTY_E_SCHEMA_NEWER', {
        path: this.file,
        what: 'schema',
        found: current,
        known: migrations.length,
      });
    if (current === migrations.length) return;
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
    this.guard.check();
    if (this.checkpointOnWrite) this.startCheckpointer();
    return this.appendNow(streamId, expectedVersion, events, options);
  }

  /** Passive checkpoints on a worker from now on, in place of SQLite's own on the commit path. */
  private startCheckpointer() {
    this.checkpointOnWrite = false;
    this.db.pragma('wal_autocheckpoint = 0');
    this.checkpointer = startCheckpointer(this.file, {
      onExit: () => {
        if (this.db.open) this.db.pragma('wal_autocheckpoint = 1000');
      },
    });
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
      if (delivery && !this.deliveries.record(delivery))
        return { version: this.versionNow(streamId), position: 0, duplicate: true };
      // The version check is a subquery per append. Where this process wrote the stream's head
      // itself, the unique (stream, version) key is check enough: versions only grow, so a stream
      // that moved on since already holds version expected + 1, and the insert conflicts.
      const first =
        this.heads.get(streamId)?.version === expectedVersion
          ? this.insertNext(rows[0]!)
          : this.stmt.insertFirst.run({ ...rows[0], expected: expectedVersion });
      if (first.changes === 0) this.conflict(streamId, expectedVersion);
      let position = Number(first.lastInsertRowid);
      for (let i = 1; i < rows.length; i++) position = Number(this.insertNext(rows[i]!).lastInsertRowid);
      const version = expectedVersion + rows.length;
      if (job) this.jobs.write(streamId, version, at, job);
      return { version, position };
    };
    try {
      const result =
        rows.length === 1 && !job && !delivery ? write() : this.db.transaction(write).immediate();
      // Remembered once committed: a commit that fails leaves the head where the database has it.
      if (!result.duplicate) this.rememberHead(streamId, result.version, head);
      return result;
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE')
        this.conflict(streamId, expectedVersion);
      throw err;
    }
  }

  /** The stream's chain head, updated in place: an append is the hot path, a new object each costs. */
  private rememberHead(streamId: string, version: number, hash: string) {
    const known = this.heads.get(streamId);
    if (!known) this.heads.set(streamId, { version, hash });
    else {
      known.version = version;
      known.hash = hash;
    }
  }

  private insertNext(r: ChainedRow) {
    return this.stmt.insertNext.run(
      r.streamId,
      r.version,
      r.type,
      r.schemaVersion,
      r.data,
      r.state,
      r.meta,
      r.at,
      r.hash,
    );
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

  private conflict(streamId: string, expected: number): never {
    throw new BootyError('BOOTY_E_VERSION_CONFLICT', {
      streamId,
      expected,
      actual: this.versionNow(streamId),
    });
  }

  async readStream(
    streamId: string,
    options: { fromVersion?: number; toVersion?: number } = {},
  ): Promise<StoredEvent[]> {
    this.guard.check();
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
    this.guard.check();
    const rows = this.stmt.readAll.all(options.after ?? 0, options.limit ?? -1) as EventRow[];
    return rows.map(toStoredEvent);
  }

  async streamVersion(streamId: string): Promise<number> {
    this.guard.check();
    return this.versionNow(streamId);
  }

  private versionNow(streamId: string): number {
    return this.stmt.version.get(streamId) as number;
  }

  async probeWritable(): Promise<void> {
    this.guard.check();
    // A commit that needs room for a large event's pages: a full disk fails it, as it fails appends.
    this.db
      .transaction(() => {
        this.stmt.probeInsert.run();
        this.stmt.probeDelete.run();
      })
      .immediate();
  }

  // The jobs read model (sqlite-job-index.ts) and the delivery log (sqlite-delivery-log.ts).

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
    // A serve taking only deliveries that start nothing writes too: SQLite's own checkpoint, with
    // its fsync, stalled a commit every thousand pages (up to 27 ms, every reply waiting on it).
    if (this.checkpointOnWrite && deliveries.length > 0) {
      this.guard.check();
      this.startCheckpointer();
    }
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

  /**
   * Closes the database, the background checkpointer's connection first: once this resolves the
   * file is whole and at rest, its write-ahead log folded in and gone, so it can be copied or
   * opened by the next process. (The checkpointer finishing on its own left its connection open a
   * moment longer, and the log vanished under a copy made just after.)
   */
  async close(): Promise<void> {
    const checkpointer = this.checkpointer;
    this.checkpointer = null;
    this.checkpointOnWrite = false;
    await checkpointer?.stop();
    // The last connection's close checkpoints through the mapped index: with that refused, the
    // process's exit lets go of the file instead, and the log keeps what was not folded in.
    if (this.db.open && this.guard.indexWritable) this.db.close();
  }
}
