import { BootyError } from '../errors.js';
import type { JobSnapshot } from '../machines/fold.js';
import { waitingStates } from '../machines/job-states.js';
import type { EventStore } from '../store/event-store.js';
import type { Delay, JobLeases, Lease } from '../store/job-leases.js';
import type { JobRecord } from '../store/records.js';
import { haltDelaySeconds } from './halt-delay.js';
import type { JobRunner } from './job-runner.js';
import { LeaseLoop, type RunEnd } from './lease-loop.js';

// The supervisor's side of many workers: which jobs this worker runs, and when a job goes back to
// the queue. The lease loop takes offered jobs; each runs here through the supervisor, stops the
// moment its lease lapses, stops when another worker's gateway wrote news to its log, and is
// offered again when its lease is let go with work left. Jobs whose offer was lost are swept up.
// A job whose run halted on a fault that is no store's is let go delayed, longer each halt in a
// row (halt-delay.ts), so no worker, its sweep included, runs it again before then. A job whose
// log another writer moved past the version its run here ended at is offered again too, parked or
// final: the event came while this worker held it, so the other writer's offer did nothing.
// A run stopped by a store fault keeps its lease, paused (lease-loop.ts), and runs here again once
// the store takes writes and the lease is renewed: a database outage moves no job.

export interface LeasedJobsHost {
  store: EventStore;
  /** The runners of the jobs under way here. */
  runners: ReadonlyMap<string, JobRunner>;
  /** Loads what running a job takes (the job engine loads with the first job a process touches). */
  ready(): Promise<void>;
  /** Gives the job its turn in this process; undefined when it cannot (shutting down, running). */
  runHere(jobId: string): Promise<JobSnapshot> | undefined;
  /** A job whose run here the gate held back: seconds until it is looked at again (null: not held). */
  heldFor(jobId: string): number | null;
  /** Reports a fault; `warn` when booty handles it (nobody need act), else `error`. */
  onError(err: unknown, jobId: string, level?: 'warn' | 'error'): void;
  /** Says what happened to a job's lease, for the log (at info, or warn). */
  said(level: 'info' | 'warn', jobId: string, what: string): void;
  /** Counts what the lease loop saw, for metrics. */
  count?(what: LeaseCount, n?: number): void;
  now(): number;
}

/** What the lease loop counts: takes (takeovers among them), failed renewals, lapses put back, halts. */
export type LeaseCount = 'take' | 'takeover' | 'renewal-failure' | 'lapse' | 'halt';

export class LeasedJobs {
  private readonly host: LeasedJobsHost;
  private readonly leases: JobLeases;
  private readonly loop: LeaseLoop;
  /** Jobs whose run here stopped on an error other than a conflict: delayed, or left to the store. */
  private readonly halted = new Map<string, Halt>();
  /** Jobs running here whose log was found ahead of their runner at the last look. */
  private readonly behind = new Set<string>();
  /** The log version each run here ended at, kept from its end to its release. */
  private readonly endedAt = new Map<string, number>();
  /** Jobs let go with a delay because the gate held them back: they did not halt. */
  private readonly gated = new Set<string>();

  constructor(leases: JobLeases, slots: number, host: LeasedJobsHost) {
    this.host = host;
    this.leases = leases;
    this.loop = new LeaseLoop({
      leases,
      slots,
      run: (lease, lost) => this.run(lease, lost),
      released: (jobId, delay) => this.released(jobId, delay),
      // Handled: the job resumes from its log on whichever worker takes it.
      lapsed: (jobId) =>
        host.onError(
          new BootyError('BOOTY_E_LEASE_LAPSED', { jobId, seconds: leases.settings.seconds }),
          jobId,
          'warn',
        ),
      cutOff: (jobId) =>
        host.said(
          'warn',
          jobId,
          'no renewal of its lease got through: the job is paused here, keeping its lease',
        ),
      resumed: (jobId) => host.said('info', jobId, 'the lease is renewed: the paused job runs here again'),
      renewed: (jobIds) => this.lookForNews(jobIds),
      sweep: () => this.offerStale(),
      // The queue's own faults are no job's: said apart, as warnings (the next round tries again).
      onError: (err, jobId) =>
        jobId
          ? host.onError(err, jobId)
          : host.onError(
              new BootyError(
                'BOOTY_E_QUEUE_FAULT',
                { reason: (err as Error)?.message ?? String(err) },
                { cause: err },
              ),
              '',
              'warn',
            ),
      events: {
        took: (lease) => {
          host.count?.('take');
          if (lease.takenOver) {
            host.count?.('takeover');
            host.said('warn', lease.jobId, 'taken over: its last lease lapsed; it resumes here from its log');
          }
        },
        renewFailed: () => host.count?.('renewal-failure'),
        putBack: (jobIds) => host.count?.('lapse', jobIds.length),
      },
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
    this.loop.wake();
  }

  /**
   * The job's run here stopped on an error. A store fault pauses it, its lease kept, until the
   * store takes writes again; any other error waits out its delay, on every worker.
   */
  halt(jobId: string, halt: Halt) {
    this.halted.set(jobId, halt);
  }

  /** The store takes writes again: paused runs renew their leases and run here again. */
  resumePaused() {
    this.loop.resumePaused();
  }

  /** Jobs whose lease this worker holds now (running, paused or being let go). */
  get held(): string[] {
    return this.loop.jobs;
  }

  /** A shutdown begins: no job is leased here from now on only to be handed straight back. */
  stopTaking() {
    this.loop.stopTaking();
  }

  /** Resolves once every run here has ended and let go of its lease (released offers it again). */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** A job this worker leased: its turn here, stopped at once if the lease lapses; its delay if it halted, paused for the store. */
  private async run(lease: Lease, lost: AbortSignal): Promise<RunEnd> {
    const { jobId } = lease;
    this.halted.delete(jobId);
    this.endedAt.delete(jobId);
    await this.host.ready();
    const run = this.host.runHere(jobId);
    const runner = this.host.runners.get(jobId);
    if (!run || !runner) return undefined;
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
      this.endedAt.set(jobId, runner.version);
    }
    // Queued for when the gate looks again, not offered straight back to be held again.
    const heldFor = this.host.heldFor(jobId);
    if (heldFor !== null) {
      this.gated.add(jobId);
      return { halts: lease.halts, seconds: heldFor };
    }
    return this.delayAfter(lease);
  }

  /** How long a job whose run halted here, on no store fault, waits; paused on one; undefined when it did not halt. */
  private async delayAfter(lease: Lease): Promise<RunEnd> {
    const halt = this.halted.get(lease.jobId);
    if (!halt) return undefined;
    if (halt.storeFault) {
      this.halted.delete(lease.jobId);
      return 'paused';
    }
    // Unread (the store failed just now), the job is delayed all the same: a due run of a job
    // with no work lets go at once, while an offer for now could run a halting job in a loop.
    const job = await this.host.store.getJob(lease.jobId).catch(() => undefined);
    if (job !== undefined && !hasWork(job)) return undefined;
    const halts = lease.halts + 1;
    return { halts, seconds: haltDelaySeconds(this.leases.settings.seconds, halts) };
  }

  /**
   * Jobs with work that nobody may hold: unfinished, not parked, and not updated for two lease
   * periods. Their offer was lost: the gateway died between an append and its offer, an offer or
   * a release failed, or the job stopped here on a store fault. Offering a queued or leased job
   * changes nothing, so a job running somewhere (its effect long) stays where it is, and a job
   * waiting out its halt's delay (its row queued for later) keeps waiting.
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
   * this worker is shutting down). A job that halted is queued delayed already (said here), or
   * waits for the store (a store fault: the paused job is offered when the store takes writes).
   * A run that ends without halting is offered like any other job, its count of halts in a row reset; so
   * is one whose log moved past the version its run ended at, even parked or final, so that its
   * next holder folds and settles the news. Not one merely reported behind its log: a GitHub
   * outage would offer it at every poll.
   */
  private async released(jobId: string, delay: Delay | undefined): Promise<void> {
    if (this.gated.delete(jobId)) return;
    // Read once: the maps are about the run that has just ended.
    const halt = this.halted.get(jobId);
    this.halted.delete(jobId);
    const endedAt = this.endedAt.get(jobId);
    this.endedAt.delete(jobId);
    if (delay) {
      this.host.count?.('halt');
      const at = new Date(this.host.now() + delay.seconds * 1000).toISOString();
      const error = new BootyError(
        'BOOTY_E_JOB_HALTED',
        { jobId, reason: reasonOf(halt?.error), halts: delay.halts, seconds: delay.seconds, at },
        { cause: halt?.error },
      );
      return this.host.onError(error, jobId);
    }
    if (halt) return;
    const job = await this.host.store.getJob(jobId);
    const news = job !== null && endedAt !== undefined && job.version > endedAt;
    if ((hasWork(job) || news) && !this.host.runners.has(jobId)) await this.offer([jobId]);
  }
}

/** Why a run halted, and whether the store's health classed it as a fault of the store's. */
export interface Halt {
  error: unknown;
  storeFault: boolean;
}

/** Unfinished and not parked: a job some worker should run. */
const hasWork = (job: JobRecord | null) =>
  job !== null && !job.final && !waitingStates.includes(job.state as never);

const reasonOf = (err: unknown) =>
  err instanceof BootyError ? `${err.code}: ${err.message}` : String((err as Error)?.message ?? err);
