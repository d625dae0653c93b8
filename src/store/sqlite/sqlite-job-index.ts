import type Database from 'better-sqlite3';
import { BootyError } from '../../errors.js';
import type { JobIndex } from '../job-index.js';
import type { JobRecord, JobUpdate } from '../records.js';
import { type JobRow, toJobRecord } from '../store-rows.js';
import type { WriteGuard } from '../write-guard.js';

// The jobs read model in SQLite's `jobs` table. The store's append writes a job's row inside its
// own transaction (write); everything else here is the JobIndex contract.

export class SqliteJobIndex implements JobIndex {
  private readonly guard: WriteGuard;
  private readonly stmt;

  constructor(db: Database.Database, guard: WriteGuard) {
    this.guard = guard;
    this.stmt = {
      upsert: db.prepare(`
        INSERT INTO jobs (job_id, repo, issue, state, attempts, final, outcome, tokens, version, branch, pr, installation, created_at, updated_at)
        VALUES (@jobId, @repo, @issue, @state, @attempts, @final, @outcome, @tokens, @version, @branch, @pr, @installation, @at, @at)
        ON CONFLICT (job_id) DO UPDATE SET state = excluded.state, attempts = excluded.attempts,
          final = excluded.final, outcome = excluded.outcome, tokens = excluded.tokens,
          version = excluded.version, branch = COALESCE(excluded.branch, branch),
          pr = COALESCE(excluded.pr, pr), updated_at = excluded.updated_at`),
      get: db.prepare('SELECT * FROM jobs WHERE job_id = ?'),
      list: db.prepare('SELECT * FROM jobs ORDER BY created_at, job_id'),
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
      // The same worker again keeps its since: a run resumed after a pause holds the job still.
      markHeld:
        db.prepare(`UPDATE jobs SET held_since = CASE WHEN held_by IS @worker THEN held_since ELSE @at END,
          held_by = @worker WHERE job_id = @jobId`),
      markLetGo: db.prepare(
        'UPDATE jobs SET held_by = NULL, held_since = NULL WHERE job_id = @jobId AND held_by = @worker',
      ),
      clearHeld: db.prepare('UPDATE jobs SET held_by = NULL, held_since = NULL WHERE held_by IS NOT NULL'),
      spentSince: db
        .prepare(
          `SELECT COALESCE(sum(json_extract(e.meta, '$.usd')), 0) FROM events e JOIN jobs j ON j.job_id = e.stream_id
           WHERE e.at >= ? AND j.installation IS ?`,
        )
        .pluck(),
    };
  }

  /** The job's row after the append of its events up to `version`: called inside that append. */
  write(jobId: string, version: number, at: number, job: JobUpdate) {
    const row = this.stmt.get.get(jobId) as JobRow | undefined;
    const existing = row ? toJobRecord(row) : null;
    const repo = job.repo ?? existing?.repo;
    const issue = job.issue ?? existing?.issue;
    if (repo === undefined || issue === undefined) {
      throw new BootyError('BOOTY_E_EVENT_INVALID', {
        type: 'JobRequested',
        reason: `the first append to job ${jobId} must name its repo and issue`,
      });
    }
    this.stmt.upsert.run({
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
      installation: job.installation ?? null,
      at,
    });
  }

  async getJob(jobId: string): Promise<JobRecord | null> {
    this.guard.check();
    const row = this.stmt.get.get(jobId) as JobRow | undefined;
    return row ? toJobRecord(row) : null;
  }

  async listJobs(filter: { unfinished?: boolean } = {}): Promise<JobRecord[]> {
    this.guard.check();
    const stmt = filter.unfinished ? this.stmt.listUnfinished : this.stmt.list;
    return (stmt.all() as JobRow[]).map(toJobRecord);
  }

  async findActiveJob(repo: string, issue: number): Promise<JobRecord | null> {
    this.guard.check();
    const row = this.stmt.activeForIssue.get(repo, issue) as JobRow | undefined;
    return row ? toJobRecord(row) : null;
  }

  async findJobForPr(
    repo: string,
    ref: { pr?: number | null; branch?: string | null },
  ): Promise<JobRecord | null> {
    this.guard.check();
    const row = this.stmt.activeForPr.get({ repo, pr: ref.pr ?? null, branch: ref.branch ?? null }) as
      | JobRow
      | undefined;
    return row ? toJobRecord(row) : null;
  }

  async jobsForIssue(repo: string, issue: number): Promise<JobRecord[]> {
    this.guard.check();
    return (this.stmt.forIssue.all(repo, issue) as JobRow[]).map(toJobRecord);
  }

  async listUnreported(): Promise<JobRecord[]> {
    this.guard.check();
    return (this.stmt.unreported.all() as JobRow[]).map(toJobRecord);
  }

  async markReported(jobId: string, version: number): Promise<void> {
    this.guard.check();
    this.stmt.markReported.run(version, jobId);
  }

  async markDamaged(jobId: string): Promise<boolean> {
    this.guard.check();
    return this.stmt.markDamaged.run(Date.now(), jobId).changes === 1;
  }

  async countJobsByState(): Promise<Record<string, number>> {
    this.guard.check();
    const rows = this.stmt.countByState.all() as { state: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.state, r.n]));
  }

  async markHeld(jobId: string, worker: string): Promise<void> {
    this.guard.check();
    this.stmt.markHeld.run({ jobId, worker, at: Date.now() });
  }

  async markLetGo(jobId: string, worker: string): Promise<void> {
    this.guard.check();
    this.stmt.markLetGo.run({ jobId, worker });
  }

  async clearHeld(): Promise<void> {
    this.guard.check();
    this.stmt.clearHeld.run();
  }

  async spentSince(since: number, installation: number | null): Promise<number> {
    this.guard.check();
    return this.stmt.spentSince.get(since, installation) as number;
  }
}
