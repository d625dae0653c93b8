// One JSON shape for a job, the same from `booty jobs --json` and from `GET /jobs` and
// `GET /jobs/:id`, documented in the README. Times are ISO strings: people read them, and
// tools parse them without knowing booty stores milliseconds.

export interface JobJson {
  /** The job's id: its event stream's id, as `booty replay` takes it. */
  jobId: string;
  /** owner/name */
  repo: string;
  issue: number;
  /** The machine state the job last recorded. */
  state: string;
  final: boolean;
  /** Why a finished job ended (a promoted PR, the failure reason); null while it runs. */
  outcome: string | null;
  attempts: number;
  /** Model tokens spent so far: input, output and cache tokens together. */
  tokens: number;
  /** How many events the job's log holds. */
  events: number;
  /** The worker running the job now (BOOTY_WORKER_ID, else host:pid); null when none runs it. */
  heldBy: string | null;
  /** Since when that worker has held it; null when none does. */
  heldSince: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What the jobs read model holds of a job, as far as the JSON shows it (the store's JobRecord is one). */
export interface JobRow {
  jobId: string;
  repo: string;
  issue: number;
  state: string;
  final: boolean;
  outcome: string | null;
  attempts: number;
  tokens: number;
  /** The stream's version: how many events the log holds. */
  version: number;
  heldBy: string | null;
  heldSince: number | null;
  createdAt: number;
  updatedAt: number;
}

export function jobJson(job: JobRow): JobJson {
  return {
    jobId: job.jobId,
    repo: job.repo,
    issue: job.issue,
    state: job.state,
    final: job.final,
    outcome: job.outcome,
    attempts: job.attempts,
    tokens: job.tokens,
    events: job.version,
    heldBy: job.heldBy,
    heldSince: job.heldSince === null ? null : new Date(job.heldSince).toISOString(),
    createdAt: new Date(job.createdAt).toISOString(),
    updatedAt: new Date(job.updatedAt).toISOString(),
  };
}
