import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type PgBoss from 'pg-boss';
import { BootyError, isBootyError } from '../../errors.js';
import type { Delay, JobLeases, Lease, LeaseSettings, QueueStats } from '../job-leases.js';
import { redactUrl } from './postgres-url.js';

// Job leases on pg-boss (10.x: the line that runs on Node 20), in its own schema of booty's
// database. One queue row per job at a time: the row's id is derived from the job id, so offering
// a job that is queued or leased already inserts nothing (pg-boss's send dedupes on the id).
// pg-boss leases a row by moving it to `active` (fetch, SKIP LOCKED). pg-boss 10 has no heartbeat
// (12 has, on Node 22), so renewing is one UPDATE of the row's expire_in, and releasing deletes the
// row; both name the activation by its started_on, which every fetch stamps anew, so a worker whose
// lease lapsed, even to a later activation of the same row, touches nothing. A job whose run
// halted is let go delayed: its row goes back to `created` with a later start_after (fetch skips
// it until then) and the count of halts in a row in its data, in one UPDATE, so no offer can queue
// the job for now in between.
// A lease lapses by booty's own UPDATE (lapse), not pg-boss's maintenance, which would move every
// row past its expire_in back to `retry` the moment the database came back from a restart longer
// than a lease: the live workers that held them, paused meanwhile, would lose them to whichever
// worker fetched first. Here a lease lives a period from its last renewal or from the server's
// start, whichever is later, so its worker renews it first. pg-boss's maintenance is off (its
// archive and drop have nothing to do here: a row is deleted when let go).

const QUEUE = 'booty-jobs';
/** The channel offers are told on (NOTIFY), so free workers take them without waiting to look. */
const CHANNEL = 'booty_jobs_offered';
const SCHEMA = 'pgboss';
// Lapsed leases always go back to the queue: a job is never given up for lapsing.
const RETRY_LIMIT = 1_000_000;

/** A queue row's data: the job, its halts in a row when it was let go delayed, and a lapse to tell. */
interface RowData {
  jobId: string;
  halts?: number;
  /** Its last lease lapsed: the next take is a takeover (cleared by it). */
  lapsed?: boolean;
}

export class PgBossLeases implements JobLeases {
  readonly settings: LeaseSettings;
  private readonly boss: Promise<PgBoss>;
  private readonly url: string;
  private report: (err: unknown) => void = () => undefined;
  /** Told of every offer on the database (LISTEN), while watching. */
  private offered: (() => void) | null = null;
  private listener: import('pg').Client | null = null;
  private closed = false;

  constructor(url: string, settings: LeaseSettings) {
    this.settings = settings;
    this.url = url;
    this.boss = start(url, settings, (err) => this.report(err)).catch((err: unknown) => {
      if (isBootyError(err, 'BOOTY_E_SCHEMA_NEWER')) throw err;
      throw new BootyError(
        'BOOTY_E_LEASES_UNAVAILABLE',
        { path: redactUrl(url), reason: (err as Error).message },
        { cause: err },
      );
    });
    this.boss.catch(() => undefined);
  }

  async ready(): Promise<void> {
    await this.boss;
  }

  watchOffers(offered: () => void): void {
    this.offered = offered;
    void this.listen();
  }

  /**
   * A connection of its own that LISTENs for offers (pooled ones come and go), made again a second
   * after it is lost (a database restart); once listening, it says so, as offers may have come
   * while it was not. Its faults are the looks' to meet: every worker still looks now and then.
   */
  private async listen(): Promise<void> {
    if (this.closed || !this.offered) return;
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: this.url, application_name: 'booty offers' });
    this.listener = client;
    let lost = false;
    const again = () => {
      if (lost) return;
      lost = true;
      if (this.listener === client) this.listener = null;
      client.end().catch(() => undefined);
      if (!this.closed) setTimeout(() => void this.listen(), 1_000).unref();
    };
    client.on('error', again);
    client.on('end', again);
    client.on('notification', () => this.offered?.());
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      this.offered?.();
    } catch {
      again();
    }
  }

  /** Wakes every watching worker: jobs were offered or put back. */
  private async tellOffered(boss: PgBoss): Promise<void> {
    await boss.getDb().executeSql(`SELECT pg_notify('${CHANNEL}', '')`, []);
  }

  async offer(jobIds: string[]): Promise<void> {
    const boss = await this.boss;
    if (jobIds.length > 0) {
      await this.sendAll(boss, jobIds);
      await this.tellOffered(boss);
    }
  }

  private async sendAll(boss: PgBoss, jobIds: string[]): Promise<void> {
    for (const jobId of jobIds) {
      await boss.send(
        QUEUE,
        { jobId },
        {
          id: rowId(jobId),
          expireInSeconds: this.settings.seconds,
          retryLimit: RETRY_LIMIT,
          retryDelay: 0,
        },
      );
    }
  }

  async take(max: number): Promise<Lease[]> {
    if (max <= 0) return [];
    const boss = await this.boss;
    const rows = await boss.fetch<RowData>(QUEUE, { batchSize: max });
    if (rows.length === 0) return [];
    // The lease lasts this worker's period, not the one its offerer's settings wrote on the row.
    const { rows: tokens } = await boss.getDb().executeSql(
      `UPDATE ${SCHEMA}.job SET expire_in = (now() - started_on) + $3 * interval '1 second',
         data = data - 'lapsed'
       WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'active'
       RETURNING id::text AS id, started_on::text AS token`,
      [QUEUE, rows.map((r) => r.id), this.settings.seconds],
    );
    const tokenOf = new Map((tokens as { id: string; token: string }[]).map((t) => [t.id, t.token]));
    return rows.flatMap((r) => {
      const token = tokenOf.get(r.id);
      return token
        ? [{ jobId: r.data.jobId, token, halts: r.data.halts ?? 0, takenOver: r.data.lapsed === true }]
        : [];
    });
  }

  async renew(leases: Lease[]): Promise<Lease[]> {
    if (leases.length === 0) return [];
    const boss = await this.boss;
    const { rows } = await boss.getDb().executeSql(
      `UPDATE ${SCHEMA}.job SET expire_in = (now() - started_on) + $3 * interval '1 second'
       WHERE name = $1 AND state = 'active'
         AND (id, started_on) IN (SELECT * FROM unnest($2::uuid[], $4::timestamptz[]))
       RETURNING id::text AS id`,
      [QUEUE, leases.map((l) => rowId(l.jobId)), this.settings.seconds, leases.map((l) => l.token)],
    );
    const held = new Set((rows as { id: string }[]).map((r) => r.id));
    return leases.filter((l) => !held.has(rowId(l.jobId)));
  }

  async release(lease: Lease, delay?: Delay): Promise<boolean> {
    const boss = await this.boss;
    const held = [QUEUE, rowId(lease.jobId), lease.token];
    // keep_until moves with start_after: pg-boss's maintenance archives a queued row past it.
    const { rows } = delay
      ? await boss.getDb().executeSql(
          `UPDATE ${SCHEMA}.job SET state = 'created', started_on = NULL, data = $4::jsonb,
             start_after = now() + $5 * interval '1 second',
             keep_until = now() + $5 * interval '1 second' + interval '14 days'
           WHERE name = $1 AND id = $2::uuid AND started_on = $3::timestamptz AND state = 'active'
           RETURNING id`,
          [
            ...held,
            JSON.stringify({ jobId: lease.jobId, halts: delay.halts } satisfies RowData),
            delay.seconds,
          ],
        )
      : await boss.getDb().executeSql(
          `DELETE FROM ${SCHEMA}.job WHERE name = $1 AND id = $2::uuid AND started_on = $3::timestamptz
             AND state = 'active' RETURNING id`,
          held,
        );
    return rows.length === 1;
  }

  async lapse(): Promise<string[]> {
    const boss = await this.boss;
    const { rows } = await boss.getDb().executeSql(
      `UPDATE ${SCHEMA}.job SET state = 'retry', start_after = now(), data = data || '{"lapsed": true}'
       WHERE name = $1 AND state = 'active'
         AND started_on + expire_in < now()
         AND pg_postmaster_start_time() + $2 * interval '1 second' < now()
       RETURNING data->>'jobId' AS job_id`,
      [QUEUE, this.settings.seconds],
    );
    if (rows.length > 0) await this.tellOffered(boss);
    return (rows as { job_id: string }[]).map((r) => r.job_id);
  }

  async nextDueIn(): Promise<number | null> {
    const boss = await this.boss;
    const { rows } = await boss.getDb().executeSql(
      `SELECT (extract(epoch FROM min(start_after) - now()) * 1000)::float8 AS ms FROM ${SCHEMA}.job
       WHERE name = $1 AND state IN ('created', 'retry') AND start_after > now()`,
      [QUEUE],
    );
    return (rows[0] as { ms: number | null } | undefined)?.ms ?? null;
  }

  async stats(): Promise<QueueStats> {
    const boss = await this.boss;
    const { rows } = await boss.getDb().executeSql(
      `SELECT count(*) FILTER (WHERE waiting AND due)::int AS queued,
         COALESCE(extract(epoch FROM now() - min(start_after) FILTER (WHERE waiting AND due)), 0)::float8 AS oldest,
         count(*) FILTER (WHERE state = 'active')::int AS leased,
         count(*) FILTER (WHERE waiting AND NOT due)::int AS delayed
       FROM (SELECT state, start_after, state IN ('created', 'retry') AS waiting, start_after <= now() AS due
             FROM ${SCHEMA}.job WHERE name = $1) q`,
      [QUEUE],
    );
    const row = rows[0] as { queued: number; oldest: number; leased: number; delayed: number };
    return { queued: row.queued, oldestSeconds: row.oldest, leased: row.leased, delayed: row.delayed };
  }

  reportErrorsTo(report: (err: unknown) => void): void {
    this.report = report;
  }

  async close(): Promise<void> {
    this.closed = true;
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => undefined);
    const boss = await this.boss.catch(() => null);
    await boss?.stop({ graceful: false, close: true, wait: true });
  }
}

async function start(url: string, settings: LeaseSettings, report: (err: unknown) => void): Promise<PgBoss> {
  // pg-boss loads with the first leasing store only: SQLite and the read-only commands never load it.
  const { default: PgBossClass } = await import('pg-boss');
  // A statement that hangs (a lock, a stalled server) fails instead of holding one of the four
  // connections for good; the lease loop stops runs it cannot renew in time either way. Not less
  // than 5 s: pg-boss creates its schema through this pool on a worker's first start.
  const timeoutMs = Math.max(5_000, (settings.seconds * 1000) / 3);
  const timeouts = {
    statement_timeout: timeoutMs,
    query_timeout: timeoutMs + 1_000,
    connectionTimeoutMillis: timeoutMs,
    // Kept open between an idle worker's looks (at most 10 s apart): a new connection costs a
    // password exchange (SCRAM) each time, much of what an idle worker spends.
    idleTimeoutMillis: 60_000,
  };
  const boss = new PgBossClass({
    connectionString: url,
    schema: SCHEMA,
    application_name: 'booty leases',
    max: 4,
    // pg's pool options, which pg-boss passes on (its types do not name them).
    ...timeouts,
    // The cron scheduler and its clock checks are not used; nor is maintenance (lapse() instead).
    schedule: false,
    supervise: false,
  });
  // Errors of pg-boss's own (a lost connection of its pool) are reported, not thrown.
  boss.on('error', report);
  await refuseNewerSchema(boss, url);
  await boss.start();
  // Workers starting together create the queue (a table per queue) at once, and PostgreSQL may
  // break their deadlock by failing one: it looks again, and finds the queue made.
  for (let tries = 1; !(await boss.getQueue(QUEUE)); tries++) {
    try {
      await boss.createQueue(QUEUE, { name: QUEUE, policy: 'standard' });
    } catch (err) {
      if ((err as { code?: string }).code !== DEADLOCK || tries >= 5) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50 * tries));
    }
  }
  return boss;
}

const DEADLOCK = '40P01';

/** pg-boss's schema version that this pg-boss knows (and migrates to). */
const PG_BOSS_SCHEMA: number = createRequire(import.meta.url)('pg-boss/version.json').schema;

/**
 * A queue schema a newer pg-boss migrated is refused: pg-boss itself would start on it and fetch
 * with statements written for another shape. Its pool opens here so that start() uses it.
 */
async function refuseNewerSchema(boss: PgBoss, url: string): Promise<void> {
  const db = boss.getDb() as PgBoss.Db & PoolOfOurs;
  if (db.open && !db.opened) await db.open();
  if (!(await boss.isInstalled())) return;
  const found = Number(await boss.schemaVersion());
  if (found > PG_BOSS_SCHEMA) {
    await db.close?.();
    throw new BootyError('BOOTY_E_SCHEMA_NEWER', {
      path: redactUrl(url),
      what: "the job queue's (pg-boss) schema",
      found,
      known: PG_BOSS_SCHEMA,
    });
  }
}

/** pg-boss's own pool, as it opens and closes it (its types name only executeSql). */
interface PoolOfOurs {
  open?: () => Promise<void>;
  close?: () => Promise<void>;
  opened?: boolean;
}

/** The queue row's id for a job: a UUID from the job id, so one job has one row at a time. */
export function rowId(jobId: string): string {
  const h = createHash('sha256').update(`booty-job:${jobId}`).digest('hex');
  const variant = ((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
