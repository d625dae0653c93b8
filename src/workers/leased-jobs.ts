import type { JobRunner } from '../actors/job-runner.js';
import { BootyError } from '../errors.js';
import type { JobSnapshot } from '../machines/fold.js';
import { waitingStates } from '../machines/job.js';
import type { EventStore } from '../store/event-store.js';
import type { JobLeases } from '../store/job-leases.js';
import { LeaseLoop } from './lease-loop.js';

// The supervisor's side of many workers: which jobs this worker runs, and when a job goes back to
// the queue. The lease loop takes offered jobs; each runs here through the supervisor, stops the
// moment its lease lapses, stops when another worker's gateway wrote news to its log, and is
// offered again when its lease is let go with work left. Jobs whose offer was lost are swept up.

export interface LeasedJobsHost {
  store: EventStore;
  /** The runners of the jobs under way here. */
  runners: ReadonlyMap<string, JobRunner>;
  /** Gives the job its turn in this process; undefined when it cannot (shutting down, running). */
  runHere(jobId: string): Promise<JobSnapshot> | undefined;
  onError(err: unknown, jobId: string): void;
  now(): number;
}

export class LeasedJobs {
  private readonly host: LeasedJobsHost;
  private readonly leases: JobLeases;
  private readonly loop: LeaseLoop;
  /** Jobs whose run here stopped on an error other than a conflict: not offered again. */
  private readonly halted = new Set<string>();
  /** Jobs running here whose log was found ahead of their runner at the last look. */
  private readonly behind = new Set<string>();

  constructor(leases: JobLeases, slots: number, host: LeasedJobsHost) {
    this.host = host;
    this.leases = leases;
    this.loop = new LeaseLoop({
      leases,
      slots,
      run: (jobId, lost) => this.run(jobId, lost),
      released: (jobId) => this.released(jobId),
      lapsed: (jobId) =>
        host.onError(
          new BootyError('BOOTY_E_LEASE_LAPSED', { jobId, seconds: leases.settings.seconds }),
          jobId,
        ),
      renewed: (jobIds) => this.lookForNews(jobIds),
      sweep: () => this.offerStale(),
      onError: (err, jobId) => host.onError(err, jobId ?? 'leases'),
    });
  }

  /** Resolves once the queue is up: a worker that cannot lease must not look healthy. */
  ready(): Promise<void> {
    return this.leases.ready();
  }

  /** Starts taking jobs (the supervisor has booted). */
  start() {
    this.loop.start();
  }

  /** Queues jobs for whichever worker leases them (a job queued or leased already stays so). */
  async offer(jobIds: string[]): Promise<void> {
    if (jobIds.length === 0) return;
    await this.leases.offer(jobIds);
    this.loop.kick();
  }

  /** The job's run here stopped on an error: it waits for a restart, not for another worker. */
  halt(jobId: string) {
    this.halted.add(jobId);
  }

  /** The job may run again (the store takes writes again). */
  unhalt(jobId: string) {
    this.halted.delete(jobId);
  }

  /** A shutdown begins: no job is leased here from now on only to be handed straight back. */
  stopTaking() {
    this.loop.stopTaking();
  }

  /** Resolves once every run here has ended and let go of its lease (released offers it again). */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** A job this worker leased: its turn here, stopped at once if the lease lapses. */
  private async run(jobId: string, lost: AbortSignal): Promise<void> {
    this.halted.delete(jobId);
    const run = this.host.runHere(jobId);
    const runner = this.host.runners.get(jobId);
    if (!run || !runner) return;
    const stop = () => runner.stop();
    lost.addEventListener('abort', stop);
    try {
      await run;
      // Not handed on while the stopped run's last append or effect is still under way: the next
      // holder would fold the log without it and do the effect again (the lease is renewed meanwhile).
      await runner.settled();
    } finally {
      lost.removeEventListener('abort', stop);
      this.behind.delete(jobId);
    }
  }

  /**
   * Jobs with work that nobody may hold: unfinished, not parked, and not updated for two lease
   * periods. Their offer was lost: the gateway died between an append and its offer, an offer or
   * a release failed, or the job stopped on an error here. Offering a queued or leased job changes
   * nothing, so a job running somewhere (its effect long) stays where it is.
   */
  private async offerStale(): Promise<void> {
    const before = this.host.now() - this.leases.settings.seconds * 2000;
    const stale = (await this.host.store.listJobs({ unfinished: true })).filter(
      (j) => j.updatedAt < before && !waitingStates.includes(j.state as never),
    );
    if (stale.length > 0) await this.leases.offer(stale.map((j) => j.jobId));
  }

  /**
   * A job running here whose log another worker's gateway wrote to (a cancel, a review) stops, so
   * that it is folded anew with the news (released offers it again), rather than meeting it only
   * at its next append, after the effect under way. Behind at two looks in a row: not the
   * runner's own append, whose count catches up within the turn.
   */
  private async lookForNews(jobIds: string[]): Promise<void> {
    for (const jobId of jobIds) {
      const runner = this.host.runners.get(jobId);
      const version = runner && (await this.host.store.getJob(jobId))?.version;
      if (!runner || version === undefined || version <= runner.version) {
        this.behind.delete(jobId);
      } else if (this.behind.delete(jobId)) {
        runner.stop();
      } else {
        this.behind.add(jobId);
      }
    }
  }

  /**
   * A leased job's lease was let go: it goes back to the queue when it still has work, that is
   * when it is unfinished and not parked (an event came as it parked, a conflict stopped it, or
   * this worker is shutting down), unless it stopped on an error, which waits for a restart.
   */
  private async released(jobId: string): Promise<void> {
    // Read once: the set is about the run that has just ended.
    if (this.halted.delete(jobId)) return;
    const job = await this.host.store.getJob(jobId);
    if (job && !job.final && !waitingStates.includes(job.state as never) && !this.host.runners.has(jobId))
      await this.offer([jobId]);
  }
}
