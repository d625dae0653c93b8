import type { Pool } from 'pg';
import type { JobIndex } from '../job-index.js';
import type { JobRecord } from '../records.js';
import { type JobRow, toJobRecord } from '../store-rows.js';
import { statement } from './queries.js';

// The jobs read model in PostgreSQL's `jobs` table. booty_append (migrations/001-init.sql) writes a
// job's row in the append's transaction; everything else here is the JobIndex contract.

const q = {
  getJob: statement('get-job', 'SELECT * FROM jobs WHERE job_id = $1'),
  listJobs: statement('list-jobs', 'SELECT * FROM jobs ORDER BY created_at, job_id'),
  listUnfinished: statement(
    'list-unfinished',
    'SELECT * FROM jobs WHERE NOT final ORDER BY created_at, job_id',
  ),
  activeForIssue: statement(
    'active-for-issue',
    'SELECT * FROM jobs WHERE repo = $1 AND issue = $2 AND NOT final ORDER BY created_at LIMIT 1',
  ),
  activeForPr: statement(
    'active-for-pr',
    `SELECT * FROM jobs WHERE repo = $1 AND (NOT final OR state = 'damaged') AND (pr = $2 OR branch = $3)
     ORDER BY final, created_at DESC LIMIT 1`,
  ),
  forIssue: statement(
    'for-issue',
    'SELECT * FROM jobs WHERE repo = $1 AND issue = $2 ORDER BY created_at, job_id',
  ),
  unreported: statement(
    'unreported',
    'SELECT * FROM jobs WHERE reported_version < version ORDER BY created_at',
  ),
  markReported: statement(
    'mark-reported',
    'UPDATE jobs SET reported_version = GREATEST(reported_version, $2) WHERE job_id = $1',
  ),
  markDamaged: statement(
    'mark-damaged',
    `UPDATE jobs SET state = 'damaged', final = true, outcome = 'damaged', reported_version = 0, updated_at = $2
     WHERE job_id = $1 AND state <> 'damaged'`,
  ),
  countByState: statement('count-by-state', 'SELECT state, count(*) AS n FROM jobs GROUP BY state'),
  // The same worker again keeps its since: a run resumed after a pause holds the job still.
  markHeld: statement(
    'mark-held',
    `UPDATE jobs SET held_since = CASE WHEN held_by IS NOT DISTINCT FROM $2 THEN held_since ELSE $3 END,
       held_by = $2 WHERE job_id = $1`,
  ),
  markLetGo: statement(
    'mark-let-go',
    'UPDATE jobs SET held_by = NULL, held_since = NULL WHERE job_id = $1 AND held_by = $2',
  ),
  clearHeld: statement(
    'clear-held',
    'UPDATE jobs SET held_by = NULL, held_since = NULL WHERE held_by IS NOT NULL',
  ),
  spentSince: statement(
    'spent-since',
    `SELECT COALESCE(sum((e.meta::json->>'usd')::float8), 0)::float8 AS usd
     FROM events e JOIN jobs j ON j.job_id = e.stream_id
     WHERE e.at >= $1 AND j.installation IS NOT DISTINCT FROM $2::bigint`,
  ),
};

export class PostgresJobIndex implements JobIndex {
  /** The store's pool, once it is open; rejects once the store is closed. */
  private readonly db: () => Promise<Pool>;

  constructor(db: () => Promise<Pool>) {
    this.db = db;
  }

  async getJob(jobId: string): Promise<JobRecord | null> {
    return this.oneJob(q.getJob, [jobId]);
  }

  async listJobs(filter: { unfinished?: boolean } = {}): Promise<JobRecord[]> {
    return this.jobs(filter.unfinished ? q.listUnfinished : q.listJobs, []);
  }

  async findActiveJob(repo: string, issue: number): Promise<JobRecord | null> {
    return this.oneJob(q.activeForIssue, [repo, issue]);
  }

  async findJobForPr(
    repo: string,
    ref: { pr?: number | null; branch?: string | null },
  ): Promise<JobRecord | null> {
    return this.oneJob(q.activeForPr, [repo, ref.pr ?? null, ref.branch ?? null]);
  }

  async jobsForIssue(repo: string, issue: number): Promise<JobRecord[]> {
    return this.jobs(q.forIssue, [repo, issue]);
  }

  async listUnreported(): Promise<JobRecord[]> {
    return this.jobs(q.unreported, []);
  }

  async markReported(jobId: string, version: number): Promise<void> {
    await (await this.db()).query({ ...q.markReported, values: [jobId, version] });
  }

  async markDamaged(jobId: string): Promise<boolean> {
    return (await (await this.db()).query({ ...q.markDamaged, values: [jobId, Date.now()] })).rowCount === 1;
  }

  async countJobsByState(): Promise<Record<string, number>> {
    const { rows } = await (await this.db()).query<{ state: string; n: number }>(q.countByState);
    return Object.fromEntries(rows.map((r) => [r.state, r.n]));
  }

  async markHeld(jobId: string, worker: string): Promise<void> {
    await (await this.db()).query({ ...q.markHeld, values: [jobId, worker, Date.now()] });
  }

  async markLetGo(jobId: string, worker: string): Promise<void> {
    await (await this.db()).query({ ...q.markLetGo, values: [jobId, worker] });
  }

  async clearHeld(): Promise<void> {
    await (await this.db()).query(q.clearHeld);
  }

  async spentSince(since: number, installation: number | null): Promise<number> {
    const { rows } = await (await this.db()).query<{ usd: number }>({
      ...q.spentSince,
      values: [since, installation],
    });
    return rows[0]!.usd;
  }

  private async oneJob(statement: { name: string; text: string }, values: unknown[]) {
    return (await this.jobs(statement, values))[0] ?? null;
  }

  private async jobs(statement: { name: string; text: string }, values: unknown[]): Promise<JobRecord[]> {
    const { rows } = await (await this.db()).query<JobRow>({ ...statement, values });
    return rows.map(toJobRecord);
  }
}
