import type { Delay, JobLeases, Lease } from '../store/job-leases.js';

// One worker's side of the job leases. While it has a free slot it takes offered jobs (every
// pollMs, and at once when a job is offered here or a slot frees), runs each, renews every lease
// it holds three times a period, and lets go when the run ends. A lease found lapsed aborts its
// run: the job may be another worker's now, and this one must act no further, nor let go of it.
// So does a lease this worker cannot vouch for: one whose last successful take or renewal is
// older than two thirds of a period, whether the renewals since failed, hung or never ran.
// A run that ends with a delay lets go of its job still queued, for no worker before the delay.

export interface LeaseLoopOptions {
  leases: JobLeases;
  slots: number;
  /**
   * Runs a leased job to the end of its turn here; `lost` aborts when the lease lapses. Resolves
   * with a delay when the job must wait that long before its next turn (its run halted).
   */
  run(lease: Lease, lost: AbortSignal): Promise<Delay | undefined>;
  /** Called once the lease is let go: the job may need another turn (offer it again), unless delayed. */
  released(jobId: string, delay: Delay | undefined): Promise<void>;
  /** A lease found lapsed: its run is being stopped. */
  lapsed(jobId: string): void;
  /** After each renewal, with the jobs still held: a run may look for news others wrote. */
  renewed(jobIds: string[]): Promise<void>;
  /** Every two lease periods: offers jobs with work whose offer was lost (a gateway died, an offer failed). */
  sweep(): Promise<void>;
  onError(err: unknown, jobId?: string): void;
}

interface Held {
  lease: Lease;
  lost: AbortController;
  /** Local time when the take or renewal that last kept the lease was asked (it lives a period from then, at least). */
  keptAt: number;
  /** The run and its release. */
  done: Promise<void>;
  /** The run has ended and the lease is being let go: a renewal missing it is no lapse. */
  releasing: boolean;
}

export class LeaseLoop {
  private readonly options: LeaseLoopOptions;
  private readonly held = new Map<string, Held>();
  private timers: NodeJS.Timeout[] = [];
  private taking = false;
  private again = false;
  /** A renewal under way: the next tick does not stack another on the database. */
  private renewing = false;
  /** Jobs are taken only once started (the supervisor has booted), and until stopped. */
  private started = false;
  private stopped = false;

  constructor(options: LeaseLoopOptions) {
    this.options = options;
    options.leases.reportErrorsTo((err) => options.onError(err));
  }

  start() {
    this.started = true;
    const { pollMs, seconds } = this.options.leases.settings;
    this.timers = [
      setInterval(() => this.kick(), pollMs),
      ...this.renewalTimers(),
      setInterval(
        () => void this.options.sweep().catch((err: unknown) => this.options.onError(err)),
        seconds * 2000,
      ),
    ];
    for (const t of this.timers) t.unref();
    this.kick();
  }

  /** Looks for offered jobs now (a job was offered here, or a slot freed). */
  kick() {
    if (!this.started || this.stopped) return;
    if (this.taking) {
      this.again = true;
      return;
    }
    void this.take();
  }

  /** Takes no more jobs (a shutdown begins: its runs are stopped next). */
  stopTaking() {
    this.stopped = true;
  }

  /** Takes no more jobs; resolves once every run here has ended and let go of its lease. */
  async stop() {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    while (this.taking) await new Promise((resolve) => setTimeout(resolve, 10));
    // Renewal goes on until the runs end: a lease must not lapse while its run is being stopped.
    const renewing = this.renewalTimers();
    try {
      await Promise.all([...this.held.values()].map((h) => h.done));
    } finally {
      for (const t of renewing) clearInterval(t);
    }
  }

  /** Renews three times a period; checks more often, so a lease unvouched for is let go well before it lapses. */
  private renewalTimers(): NodeJS.Timeout[] {
    const period = this.options.leases.settings.seconds * 1000;
    return [setInterval(() => this.tick(), period / 3), setInterval(() => this.abortUnvouched(), period / 6)];
  }

  private async take() {
    this.taking = true;
    try {
      do {
        this.again = false;
        const free = this.options.slots - this.held.size;
        if (free <= 0 || this.stopped) break;
        const askedAt = Date.now();
        for (const lease of await this.options.leases.take(free)) this.runLeased(lease, askedAt);
      } while (this.again);
    } catch (err) {
      this.options.onError(err);
    } finally {
      this.taking = false;
    }
  }

  private runLeased(lease: Lease, keptAt: number) {
    // Leased here again: the earlier lease lapsed (this worker paused past it), so its run stops
    // first, and the job runs anew from its log.
    const earlier = this.held.get(lease.jobId);
    earlier?.lost.abort();
    const lost = new AbortController();
    const entry: Held = { lease, lost, keptAt, done: Promise.resolve(), releasing: false };
    entry.done = (async () => {
      await earlier?.done;
      let delay: Delay | undefined;
      try {
        delay = await this.options.run(lease, lost.signal);
      } catch (err) {
        this.options.onError(err, lease.jobId);
      }
      entry.releasing = true;
      try {
        if (!lost.signal.aborted && (await this.options.leases.release(lease, delay)))
          await this.options.released(lease.jobId, delay);
      } catch (err) {
        this.options.onError(err, lease.jobId);
      } finally {
        if (this.held.get(lease.jobId) === entry) this.held.delete(lease.jobId);
        this.kick();
      }
    })();
    this.held.set(lease.jobId, entry);
  }

  private tick() {
    this.abortUnvouched();
    if (!this.renewing) void this.renew();
  }

  /** Stops every run whose lease may have lapsed unseen: no renewal has kept it for 2/3 of a period. */
  private abortUnvouched() {
    const oldest = Date.now() - (this.options.leases.settings.seconds * 1000 * 2) / 3;
    for (const h of this.held.values()) {
      if (h.keptAt >= oldest || h.lost.signal.aborted || h.releasing) continue;
      this.options.lapsed(h.lease.jobId);
      h.lost.abort();
    }
  }

  private async renew() {
    this.renewing = true;
    const held = [...this.held.values()];
    const askedAt = Date.now();
    try {
      const lapsed = new Set((await this.options.leases.renew(held.map((h) => h.lease))).map((l) => l.jobId));
      for (const h of held) {
        if (!lapsed.has(h.lease.jobId)) h.keptAt = askedAt;
        else if (!h.lost.signal.aborted && !h.releasing) {
          this.options.lapsed(h.lease.jobId);
          h.lost.abort();
        }
      }
      await this.options.renewed(held.filter((h) => !h.lost.signal.aborted).map((h) => h.lease.jobId));
    } catch (err) {
      // Tried again next tick; a lease that is not renewed in time is let go (abortUnvouched).
      this.options.onError(err);
    } finally {
      this.renewing = false;
    }
  }
}
