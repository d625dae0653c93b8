import type { Delay, JobLeases, Lease } from '../store/job-leases.js';

// One worker's side of the job leases. While it has a free slot it takes offered jobs (every
// pollMs, at once when a job is offered here or a slot frees, and when a delayed job comes due),
// runs each, renews every lease it holds three times a period, and lets go when the run ends.
// Every half period it puts back leases that lapsed anywhere (a dead worker's). A lease found
// lapsed aborts its run: the job may be another worker's now, and this one must act no further,
// nor let go of it.
// A run that stopped because the store took no writes (it ends `paused`), or whose lease this
// worker could not vouch for (no take or renewal kept it for two thirds of a period: the renewals
// failed, hung or never ran), keeps its lease: it is not let go, and it renews it as soon as the
// database answers (every half second while any is paused). Renewed, the job runs here again,
// from its log; found lapsed, it is another worker's. So a database outage moves no job, and only
// a worker that died gives its jobs away.
// A run that ends with a delay lets go of its job still queued, for no worker before the delay.

/** How a run here ended: a delay (it halted), paused (the store took no writes), or neither. */
export type RunEnd = Delay | 'paused' | undefined;

/** What the loop saw, for metrics; each called once per occurrence. */
export interface LeaseEvents {
  took?(lease: Lease): void;
  renewFailed?(): void;
  /** This worker's lapse() put back leases that lapsed (other workers', or its own). */
  putBack?(jobIds: string[]): void;
}

export interface LeaseLoopOptions {
  leases: JobLeases;
  slots: number;
  /**
   * Runs a leased job to the end of its turn here; `lost` aborts when the lease lapses (or cannot
   * be vouched for). Resolves with a delay when the job must wait that long before its next turn
   * (its run halted), or `paused` when it stopped for the store and keeps its lease.
   */
  run(lease: Lease, lost: AbortSignal): Promise<RunEnd>;
  /** Called once the lease is let go: the job may need another turn (offer it again), unless delayed. */
  released(jobId: string, delay: Delay | undefined): Promise<void>;
  /** A lease found lapsed: its run is being stopped, and the job may run on another worker. */
  lapsed(jobId: string): void;
  /** A run stopped because its lease could not be vouched for: it keeps the lease, paused. */
  cutOff(jobId: string): void;
  /** A paused run's lease was renewed: it runs here again. */
  resumed(jobId: string): void;
  /** After each renewal, with the jobs still held: a run may look for news others wrote. */
  renewed(jobIds: string[]): Promise<void>;
  /** Every two lease periods: offers jobs with work whose offer was lost (a gateway died, an offer failed). */
  sweep(): Promise<void>;
  onError(err: unknown, jobId?: string): void;
  events?: LeaseEvents;
}

/** What a paused run waits for: run again here, or let go, or nothing (the lease lapsed). */
type Resume = 'run' | 'release' | 'gone';

interface Held {
  lease: Lease;
  lost: AbortController;
  /** Local time when the take or renewal that last kept the lease was asked (it lives a period from then, at least). */
  keptAt: number;
  /** The run and its release. */
  done: Promise<void>;
  /** The run has ended and the lease is being let go: a renewal missing it is no lapse. */
  releasing: boolean;
  /** The run was stopped because no renewal vouched for the lease: it pauses, keeping it. */
  unvouched: boolean;
  /** A renewal found the lease lapsed: it is not this worker's to let go. */
  lapsed: boolean;
  /** Paused, keeping its lease: resolves how it goes on. */
  paused: ((how: Resume) => void) | null;
}

export class LeaseLoop {
  private readonly options: LeaseLoopOptions;
  private readonly held = new Map<string, Held>();
  private timers: NodeJS.Timeout[] = [];
  private taking = false;
  private again = false;
  /** A renewal under way: the next tick does not stack another on the database. */
  private renewing = false;
  /** The last renewal failed: the next failure is not said again. */
  private failing = false;
  /** Looks in a row that found nothing for free slots: an idle worker looks less often. */
  private emptyLooks = 0;
  private pollTimer: NodeJS.Timeout | null = null;
  /** A look when the soonest delayed job comes due (lookWhenDue), and when that is. */
  private dueTimer: NodeJS.Timeout | null = null;
  private dueAt = Infinity;
  /** Set while a run is paused (retryPaused). */
  private pausedRetry: NodeJS.Timeout | null = null;
  /** Jobs are taken only once started (the supervisor has booted), and until stopped. */
  private started = false;
  private stopped = false;

  constructor(options: LeaseLoopOptions) {
    this.options = options;
    options.leases.reportErrorsTo((err) => options.onError(err));
  }

  start() {
    this.started = true;
    const { seconds } = this.options.leases.settings;
    this.timers = [
      ...this.renewalTimers(),
      setInterval(() => void this.lapse(), Math.ceil(seconds / 2) * 1000),
      setInterval(
        () => void this.options.sweep().catch((err: unknown) => this.options.onError(err)),
        seconds * 2000,
      ),
    ];
    for (const t of this.timers) t.unref();
    this.options.leases.watchOffers?.(() => this.wake());
    this.schedulePoll();
    this.kick();
  }

  /**
   * The next look: every pollMs while looks find jobs; after each that finds none, twice as long,
   * up to a third of a lease period (at most 10 s). Offers are told at once where the queue can
   * (watchOffers), a job offered here kicks at once, and a delayed job a look saw is looked for
   * when it comes due (lookWhenDue): the looks are for what nothing tells, such as a job delayed
   * since the last look. An idle worker so costs little CPU.
   */
  private schedulePoll() {
    if (this.stopped) return;
    const { pollMs, seconds } = this.options.leases.settings;
    const longest = Math.max(pollMs, Math.min((seconds * 1000) / 3, IDLE_LOOK_MAX_MS));
    const wait = Math.min(pollMs * 2 ** this.emptyLooks, longest);
    this.pollTimer = setTimeout(() => {
      this.kick();
      this.schedulePoll();
    }, wait);
    this.pollTimer.unref();
  }

  /** Jobs were offered (here or by another worker): look now, and keep looking often. */
  wake() {
    this.emptyLooks = 0;
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

  /** The store takes writes again: paused runs renew their leases now, not at the next look. */
  resumePaused() {
    if (this.pausedCount() > 0 && !this.renewing) void this.renew();
  }

  /** Takes no more jobs (a shutdown begins: its runs are stopped next). */
  stopTaking() {
    this.stopped = true;
  }

  /** Jobs leased here now. */
  get jobs(): string[] {
    return [...this.held.keys()];
  }

  /** Takes no more jobs; resolves once every run here has ended and let go of its lease. */
  async stop() {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    if (this.pollTimer) clearTimeout(this.pollTimer);
    if (this.dueTimer) clearTimeout(this.dueTimer);
    if (this.pausedRetry) clearInterval(this.pausedRetry);
    this.pausedRetry = null;
    while (this.taking) await new Promise((resolve) => setTimeout(resolve, 10));
    // A paused run does not wait for the store any more: it lets go (if the store answers; else
    // its lease lapses, and another worker resumes it).
    for (const h of this.held.values()) h.paused?.('release');
    // Renewal goes on until the runs end: a lease must not lapse while its run is being stopped.
    const renewing = this.renewalTimers();
    try {
      await Promise.all([...this.held.values()].map((h) => h.done));
    } finally {
      for (const t of renewing) clearInterval(t);
    }
  }

  /** Renews three times a period; checks often, so a lease unvouched for stops its run well before it lapses. */
  private renewalTimers(): NodeJS.Timeout[] {
    const period = this.options.leases.settings.seconds * 1000;
    const timers = [
      setInterval(() => this.tick(), period / 3),
      setInterval(() => this.abortUnvouched(), period / 6),
    ];
    for (const t of timers) t.unref();
    return timers;
  }

  /**
   * Renews every half second while a run is paused, and stops once none is: an idle worker has
   * nothing to retry, and twice a second was most of its wake-ups.
   */
  private retryPaused() {
    if (this.pausedRetry) return;
    this.pausedRetry = setInterval(() => {
      if (this.pausedCount() > 0) return this.resumePaused();
      clearInterval(this.pausedRetry!);
      this.pausedRetry = null;
    }, PAUSED_RETRY_MS);
    this.pausedRetry.unref();
  }

  private pausedCount() {
    let n = 0;
    for (const h of this.held.values()) if (h.paused) n++;
    return n;
  }

  private async take() {
    this.taking = true;
    try {
      do {
        this.again = false;
        const free = this.options.slots - this.held.size;
        if (free <= 0 || this.stopped) break;
        const askedAt = Date.now();
        const taken = await this.options.leases.take(free);
        this.emptyLooks = taken.length > 0 ? 0 : Math.min(this.emptyLooks + 1, 16);
        for (const lease of taken) {
          this.options.events?.took?.(lease);
          this.runLeased(lease, askedAt);
        }
        if (taken.length === 0) await this.lookWhenDue();
      } while (this.again);
    } catch (err) {
      this.options.onError(err);
    } finally {
      this.taking = false;
    }
  }

  /**
   * After a look that found nothing: a job let go with a delay (its run halted here or on another
   * worker) is looked for when it comes due, not up to a backed-off look later. In a fleet this
   * worker then takes it as soon as any other would, even one that looks more often (an older
   * release beside it, which may refuse the job and so double its delay).
   */
  private async lookWhenDue() {
    const inMs = await this.options.leases.nextDueIn();
    // Due past the next few looks: one of them arms it (a timer holds at most about 24 days).
    if (inMs === null || inMs > IDLE_LOOK_MAX_MS * 6) return;
    const at = Date.now() + inMs;
    if (this.dueTimer && this.dueAt <= at) return;
    if (this.dueTimer) clearTimeout(this.dueTimer);
    this.dueAt = at;
    this.dueTimer = setTimeout(() => {
      this.dueTimer = null;
      this.dueAt = Infinity;
      this.kick();
    }, inMs + DUE_SLACK_MS);
    this.dueTimer.unref();
  }

  private async lapse() {
    try {
      const putBack = await this.options.leases.lapse();
      if (putBack.length > 0) {
        this.options.events?.putBack?.(putBack);
        this.kick();
      }
    } catch (err) {
      this.options.onError(err);
    }
  }

  private runLeased(lease: Lease, keptAt: number) {
    // Leased here again: the earlier lease lapsed (this worker paused past it), so its run stops
    // first, and the job runs anew from its log.
    const earlier = this.held.get(lease.jobId);
    earlier?.lost.abort();
    earlier?.paused?.('gone');
    const entry: Held = {
      lease,
      lost: new AbortController(),
      keptAt,
      done: Promise.resolve(),
      releasing: false,
      unvouched: false,
      lapsed: false,
      paused: null,
    };
    entry.done = (async () => {
      await earlier?.done;
      const end = await this.runUntilLetGo(entry);
      if (end === 'gone') return this.forget(entry);
      entry.releasing = true;
      try {
        // Letting go names this activation: a lease that lapsed meanwhile is left as it is.
        if (!entry.lapsed && (await this.options.leases.release(lease, end)))
          await this.options.released(lease.jobId, end);
      } catch (err) {
        this.options.onError(err, lease.jobId);
      } finally {
        this.forget(entry);
      }
    })();
    this.held.set(lease.jobId, entry);
  }

  /**
   * Runs the job until its run ends for good: with its delay, if it halted; `gone` when the lease
   * lapsed while it was paused. A paused run keeps the lease, not let go, until a renewal says
   * how it goes on: again here, or gone; or until a shutdown lets it go.
   */
  private async runUntilLetGo(entry: Held): Promise<Delay | undefined | 'gone'> {
    for (;;) {
      let end: RunEnd;
      try {
        end = await this.options.run(entry.lease, entry.lost.signal);
      } catch (err) {
        this.options.onError(err, entry.lease.jobId);
      }
      if (end !== 'paused' && !entry.unvouched) return end;
      if (entry.lapsed) return 'gone';
      const how = this.stopped
        ? 'release'
        : await new Promise<Resume>((resolve) => {
            entry.paused = resolve;
            this.retryPaused();
          });
      entry.paused = null;
      if (how !== 'run') return how === 'gone' ? how : undefined;
      entry.unvouched = false;
      entry.lost = new AbortController();
      this.options.resumed(entry.lease.jobId);
    }
  }

  private forget(entry: Held) {
    if (this.held.get(entry.lease.jobId) === entry) this.held.delete(entry.lease.jobId);
    this.kick();
  }

  private tick() {
    this.abortUnvouched();
    if (!this.renewing) void this.renew();
  }

  /** Stops every run whose lease may lapse unseen: no renewal has kept it for 2/3 of a period. It pauses, keeping the lease. */
  private abortUnvouched() {
    const oldest = Date.now() - (this.options.leases.settings.seconds * 1000 * 2) / 3;
    for (const h of this.held.values()) {
      if (h.keptAt >= oldest || h.lost.signal.aborted || h.releasing || h.paused) continue;
      h.unvouched = true;
      this.options.cutOff(h.lease.jobId);
      h.lost.abort();
    }
  }

  private async renew() {
    this.renewing = true;
    const held = [...this.held.values()].filter((h) => !h.releasing);
    const askedAt = Date.now();
    try {
      const lapsed = new Set((await this.options.leases.renew(held.map((h) => h.lease))).map((l) => l.jobId));
      for (const h of held) {
        if (!lapsed.has(h.lease.jobId)) {
          h.keptAt = askedAt;
          h.paused?.('run');
        } else if (h.paused) {
          h.lapsed = true;
          this.options.lapsed(h.lease.jobId);
          h.paused('gone');
        } else if (!h.lapsed) {
          h.lapsed = true;
          this.options.lapsed(h.lease.jobId);
          h.lost.abort();
        }
      }
      this.failing = false;
      await this.options.renewed(
        held.filter((h) => !h.lost.signal.aborted && !h.paused).map((h) => h.lease.jobId),
      );
    } catch (err) {
      // Tried again next tick; a lease that is not renewed in time stops its run (abortUnvouched).
      // Said once until a renewal succeeds: paused runs ask twice a second.
      this.options.events?.renewFailed?.();
      if (!this.failing) this.options.onError(err);
      this.failing = true;
    } finally {
      this.renewing = false;
    }
  }
}

/** The longest an idle worker waits between looks at the queue (see schedulePoll). */
const IDLE_LOOK_MAX_MS = 10_000;

/** How long after a delayed job's due time its look comes: the queue takes only jobs past due. */
const DUE_SLACK_MS = 10;

/** How often a paused run asks the database to renew its lease: it resumes within this of the database answering. */
const PAUSED_RETRY_MS = 500;
