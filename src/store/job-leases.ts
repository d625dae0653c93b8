// Jobs leased to many workers on one database. A job is offered (queued) when it has work; one
// worker at a time holds its lease and runs it; the lease is renewed while it runs and lapses
// when the worker dies (a worker's lapse() puts it back), so another worker takes the job and
// resumes it from its log. A parked job
// holds no lease and has no offer: the event that wakes it offers it again. PostgreSQL leases
// through pg-boss (postgres/pg-boss-leases.ts), tests may lease in memory (memory-job-leases.ts);
// the SQLite store has no leases: its one process runs every job itself.

export interface LeaseSettings {
  /** How long a lease lives unrenewed: a killed worker's jobs move on after about this long. */
  seconds: number;
  /** How often a worker with free slots looks for offered jobs. */
  pollMs: number;
}

export interface Lease {
  jobId: string;
  /** This activation of the lease, as the database stamped it: renewing and releasing name it. */
  token: string;
  /** The job's runs that halted in a row before this take (0 unless it was let go delayed). */
  halts: number;
  /** The job's last lease lapsed (its worker died or was cut off): this take moves it. */
  takenOver?: boolean;
}

/** The queue as every worker sees it: the same on each, so a sum over workers counts it N times. */
export interface QueueStats {
  /** Jobs offered and due, that no worker holds. */
  queued: number;
  /** Seconds the longest-waiting of them has waited (0 when none waits). */
  oldestSeconds: number;
  /** Jobs leased to some worker now. */
  leased: number;
  /** Jobs let go with a delay (their run halted), not yet due. */
  delayed: number;
}

/** A lease let go with its job kept queued, taken by no worker for a while: its run halted. */
export interface Delay {
  seconds: number;
  /** Halts in a row, this one included: the next take reads it back (Lease.halts). */
  halts: number;
}

export interface JobLeases {
  readonly settings: LeaseSettings;
  /** Resolves once the queue is up; rejects with why it cannot start (BOOTY_E_LEASES_UNAVAILABLE). */
  ready(): Promise<void>;
  /** Queues jobs to run on some worker; a job offered or leased already is left as it is. */
  offer(jobIds: string[]): Promise<void>;
  /**
   * Calls `offered` whenever any worker offers jobs or puts lapsed ones back (and once watching
   * begins), so a free worker takes them at once rather than at its next look; a queue that cannot
   * tell leaves the workers to their looks.
   */
  watchOffers?(offered: () => void): void;
  /** Leases up to `max` offered jobs to this worker. */
  take(max: number): Promise<Lease[]>;
  /** Renews leases for another period; returns those that were no longer held (lapsed). */
  renew(leases: Lease[]): Promise<Lease[]>;
  /**
   * Lets go of a lease; false when it was no longer held (it lapsed, maybe to another worker).
   * With a delay the job stays queued in the same step, for no worker to take before the delay
   * ends: an offer meanwhile, which would have queued it for now, finds it queued and does nothing.
   */
  release(lease: Lease, delay?: Delay): Promise<boolean>;
  /**
   * Puts back in the queue, for any worker, every lease not renewed within its period, and
   * returns their jobs. The period is counted from the database's own start too: after a restart
   * of the database no lease lapses for a period, so the workers that held them (alive, and cut off
   * meanwhile) renew them first, and only a dead worker's jobs move.
   */
  lapse(): Promise<string[]>;
  /**
   * Milliseconds until the soonest job let go with a delay comes due, or null when none waits:
   * a worker looks then, rather than at its next look (the database's clock, so no skew).
   */
  nextDueIn(): Promise<number | null>;
  /** What the queue holds now, for metrics. */
  stats(): Promise<QueueStats>;
  /** Where faults of the queue's own background work (its maintenance) are reported. */
  reportErrorsTo(report: (err: unknown) => void): void;
  close(): Promise<void>;
}
