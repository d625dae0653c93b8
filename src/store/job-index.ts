import type { JobRecord } from './records.js';

// The jobs read model: one row per job, written by the append that changes the job
// (EventLog.append's `job`), so it never lags the log. It answers what the engine, the intake and
// the views ask about jobs without folding logs: which are unfinished, which job an issue or a
// pull request belongs to, whose progress comment lags, how many stand in each state.

export interface JobIndex {
  getJob(jobId: string): Promise<JobRecord | null>;
  listJobs(filter?: { unfinished?: boolean }): Promise<JobRecord[]>;
  /** The issue's unfinished job, if it has one. */
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
  /** The progress comment shows the stream up to `version`; the mark never moves back. */
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
  /**
   * Who runs the job now: a worker whose run of it begins. Since when is kept while the same
   * worker holds it again (a run resumed after a pause).
   */
  markHeld(jobId: string, worker: string): Promise<void>;
  /** The worker's run of the job has ended: it holds it no more (another worker's hold stays). */
  markLetGo(jobId: string, worker: string): Promise<void>;
  /** Forgets every holder: a store one process owns starts with none (SQLite). */
  clearHeld(): Promise<void>;
  /**
   * Dollars the model cost the jobs of one installation (null: jobs with none) in the events
   * written since a time (epoch ms): the day's spend a per-day cap reads.
   */
  spentSince(since: number, installation: number | null): Promise<number>;
}
