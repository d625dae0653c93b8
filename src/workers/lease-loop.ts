import type { JobLeases, Lease } from '../store/job-leases.js';

// One worker's side of the job leases. While it has a free slot it takes offered jobs (every
// pollMs, and at once when a job is offered here or a slot frees), runs each, renews every lease
// it holds three times a period, and lets go when the run ends. A lease found lapsed aborts its
// run: the job may be another worker's now, and this one must act no further, nor let go of it.

export interface LeaseLoopOptions {
  leases: JobLeases;
  slots: number;
  /** Runs a leased job to the end of its turn here; `lost` aborts when the lease lapses. */
  run(jobId: string, lost: AbortSignal): Promise<void>;
  /** Called once the lease is let go: the job may need another turn (offer it again). */
  released(jobId: string): Promise<void>;
  /** A lease found lapsed: its run is being stopped. */
  lapsed(jobId: string): void;
  /** After each renewal, with the jobs still held: a run may look for news others wrote. */
  renewed(jobIds: string[]): Promise<void>;
  /** Every two lease periods: offers jobs whose offer was lost (their gateway died before it). */
  sweep(): Promise<void>;
  onError(err: unknown, jobId?: string): void;
}

interface Held {
  lease: Lease;
  lost: AbortController;
  /** The run and its release. */
  done: Promise<void>;
}

export class LeaseLoop {
  private readonly options: LeaseLoopOptions;
  private readonly held = new Map<string, Held>();
  private timers: NodeJS.Timeout[] = [];
  private taking = false;
  private again = false;
  /** Jobs are taken only once started (the supervisor has booted), and until stopped. */
  private started = false;
  private stopped = false;

  constructor(options: LeaseLoopOptions) {
    this.options = options;
  }

  start() {
    this.started = true;
    const { pollMs, seconds } = this.options.leases.settings;
    this.timers = [
      setInterval(() => this.kick(), pollMs),
      setInterval(() => void this.renew(), (seconds * 1000) / 3),
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

  /** Takes no more jobs; resolves once every run here has ended and let go of its lease. */
  async stop() {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    while (this.taking) await new Promise((resolve) => setTimeout(resolve, 10));
    // Renewal goes on until the runs end: a lease must not lapse while its run is being stopped.
    const renewing = setInterval(() => void this.renew(), (this.options.leases.settings.seconds * 1000) / 3);
    try {
      await Promise.all([...this.held.values()].map((h) => h.done));
    } finally {
      clearInterval(renewing);
    }
  }

  private async take() {
    this.taking = true;
    try {
      do {
        this.again = false;
        const free = this.options.slots - this.held.size;
        if (free <= 0 || this.stopped) break;
        for (const lease of await this.options.leases.take(free)) this.runLeased(lease);
      } while (this.again);
    } catch (err) {
      this.options.onError(err);
    } finally {
      this.taking = false;
    }
  }

  private runLeased(lease: Lease) {
    // Leased here again: the earlier lease lapsed (this worker paused past it), so its run stops
    // first, and the job runs anew from its log.
    const earlier = this.held.get(lease.jobId);
    earlier?.lost.abort();
    const lost = new AbortController();
    const entry: Held = { lease, lost, done: Promise.resolve() };
    entry.done = (async () => {
      await earlier?.done;
      try {
        await this.options.run(lease.jobId, lost.signal);
      } catch (err) {
        this.options.onError(err, lease.jobId);
      }
      try {
        if (!lost.signal.aborted && (await this.options.leases.release(lease)))
          await this.options.released(lease.jobId);
      } catch (err) {
        this.options.onError(err, lease.jobId);
      } finally {
        if (this.held.get(lease.jobId) === entry) this.held.delete(lease.jobId);
        this.kick();
      }
    })();
    this.held.set(lease.jobId, entry);
  }

  private async renew() {
    const held = [...this.held.values()];
    try {
      const lapsed = new Set((await this.options.leases.renew(held.map((h) => h.lease))).map((l) => l.jobId));
      for (const h of held) {
        if (!lapsed.has(h.lease.jobId) || h.lost.signal.aborted) continue;
        this.options.lapsed(h.lease.jobId);
        h.lost.abort();
      }
      await this.options.renewed(held.filter((h) => !h.lost.signal.aborted).map((h) => h.lease.jobId));
    } catch (err) {
      // A renewal that could not reach the database is tried again next time; the lease lives on.
      this.options.onError(err);
    }
  }
}
