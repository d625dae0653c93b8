import { randomBytes } from 'node:crypto';
import PQueue from 'p-queue';
import type { InspectionEvent } from 'xstate';
import type { z } from 'zod';
import { BootyError, isBootyError } from '../errors.js';
import { catalogue } from '../events/catalogue.js';
import type { EffectName } from '../events/effect-results.js';
import {
  type CancelReason,
  type JobCancelled,
  type JobRequest,
  JobRequested,
  type RepoRef,
  repoKey,
} from '../events/job-events.js';
import { MACHINE_VERSION } from '../events/versions.js';
import type { EffectImpls } from '../machines/effect-contract.js';
import type { JobSnapshot } from '../machines/fold.js';
import { isParked, stateName } from '../machines/job-states.js';
import type { EventStore } from '../store/event-store.js';
import { readJobLog } from '../store/job-log.js';
import type { DeliveryRecord, JobRecord } from '../store/records.js';
import type { StoreHealth } from '../store/store-health.js';
import { HeldJobs, type StartGate } from './held-jobs.js';
import { type JobEngine, loadJobEngine } from './job-engine.js';
import type { JobChange, JobRunner, OutsideEvent, ReceiveResult } from './job-runner.js';
import { type LeaseCount, LeasedJobs } from './leased-jobs.js';
import { type CheckedLog, damageIn, newerWriting, readCheckedLog } from './log-check.js';

// Owns every running job in this process: starts them within the concurrency bound, resumes the
// unfinished ones at start-up, routes cancels, and stops cleanly. A job's stream is written only
// through its runner (JobRequested aside, which creates it), so a stream has one writer here.
//
// On a store with leases (many workers on one PostgreSQL database) a job with work is offered to
// the queue instead of run at once, and runs on whichever worker leases it
// (src/engine/leased-jobs.ts). Any worker takes any webhook: the event is appended to the job's
// log and the job offered. A worker whose append conflicts has met another writer of the job: its
// runner stops, acting no further, and the job is offered again to be folded anew.

export interface JobObserver {
  /** After each event is logged. Must not throw or block. */
  changed?(change: ObservedChange): void;
  /** Awaited when a job finishes (or on boot for a finished job whose report lags), e.g. to flush a comment. */
  settled?(jobId: string, snapshot: JobSnapshot, version: number): Promise<void>;
  /**
   * A job whose log does not check out was marked damaged here: it will not run, and takes no
   * event. Awaited at boot and in a job's turn; after a delivery found the damage, not waited for
   * by the delivery's answer (onIdle waits for it).
   */
  damaged?(job: JobRecord, problem: BootyError): Promise<void>;
  /** With leases: a job's run begins on this worker, which holds its lease. Must not throw or block. */
  running?(jobId: string): void;
  /** With leases: awaited as a job's run here ends, before its lease is let go: it may run elsewhere next. */
  leaving?(jobId: string): Promise<void>;
}

export interface ObservedChange extends JobChange {
  /**
   * The job runs on this worker. Always, without leases; with them, false for an event this
   * worker's gateway logged for a job that runs on another worker, or on none yet.
   */
  runsHere: boolean;
}

export interface SupervisorOptions {
  store: EventStore;
  /** The effects every job's machine invokes: the real ones, or a test's. */
  effects: Partial<EffectImpls>;
  /** Called with every finished effect, for metrics. */
  observeEffect?: (src: EffectName, durationMs: number, ok: boolean) => void;
  concurrency?: number;
  /** Settings stamped into every new job, e.g. from the environment. */
  settings?: Partial<JobRequested['settings']>;
  /** Repositories (owner/name) whose jobs modify booty itself. */
  isSelf?: (repo: RepoRef) => boolean;
  observers?: JobObserver[];
  inspect?: (event: InspectionEvent) => void;
  /** A fault: `warn` when booty handles it and nobody need act, `error` (the default) otherwise. */
  onError?: (err: unknown, jobId: string, level?: 'warn' | 'error') => void;
  /** What happened to a job's run here that is no fault: a drain, a lease kept or moved. */
  note?: (level: 'info' | 'warn', jobId: string, what: string, fields?: Record<string, unknown>) => void;
  /** With leases: counts what the lease loop saw, for metrics. */
  countLease?: (what: LeaseCount, n?: number) => void;
  /** This worker's name, written into every event it appends and onto the jobs it runs. */
  worker?: string;
  clock?: () => number;
  /** What a new job passes before its first step (the per-day dollar cap); none: every job starts. */
  gate?: StartGate;
  /**
   * Whether the store takes writes (a server's). While it does not, deliveries are refused with
   * 503, and a job whose append failed is paused, its slot freed, until `resumePaused`.
   */
  health?: StoreHealth;
}

export class Supervisor {
  private readonly options: SupervisorOptions;
  private readonly queue: PQueue;
  /** Runners of the jobs queued or running here. */
  private readonly runners = new Map<string, JobRunner>();
  /** Jobs stopped because the store took no writes: they resume from their logs when it does. */
  private readonly paused = new Set<string>();
  private readonly finished = new Map<string, Promise<JobSnapshot>>();
  /** Deliveries are taken (until the jobs have stopped). */
  private accepting = true;
  /** Runs start here (until a shutdown begins: a draining worker starts none). */
  private taking = true;
  /** Jobs whose run has begun here (not only queued for a slot). */
  private readonly started = new Set<string>();
  /** A drain under way: each running job stops once its step's outcome is logged. */
  private drain: Drain | null = null;
  /** Leased runs (a store with leases): the jobs this worker takes from the queue. */
  private readonly leased: LeasedJobs | null;
  /** Reports of damaged jobs under way that no caller waits for. */
  private readonly telling = new Set<Promise<void>>();
  /** Loaded with the first job this process touches (src/engine/job-engine.ts). */
  private engine: JobEngine | null = null;
  /** New jobs the gate holds back: offered again when it said to look again. */
  private readonly held = new HeldJobs({
    now: () => this.now(),
    offer: (jobId) => void this.enqueue(jobId).catch((err: unknown) => this.options.onError?.(err, jobId)),
  });

  constructor(options: SupervisorOptions) {
    this.options = options;
    const slots = Math.max(1, options.concurrency ?? 2);
    this.queue = new PQueue({ concurrency: slots });
    const { leases } = options.store;
    this.leased = leases
      ? new LeasedJobs(leases, slots, {
          store: options.store,
          runners: this.runners,
          ready: () => this.load(),
          runHere: (jobId) => this.runHere(jobId),
          heldFor: (jobId) => {
            const at = this.held.take(jobId);
            return at === undefined ? null : Math.max(1, Math.ceil((at - this.now()) / 1000));
          },
          onError: (err, jobId, level) => this.options.onError?.(err, jobId, level),
          said: (level, jobId, what) => this.options.note?.(level, jobId, what),
          count: options.countLease,
          now: () => this.now(),
        })
      : null;
  }

  get store() {
    return this.options.store;
  }

  get running(): string[] {
    return [...this.runners.keys()];
  }

  /**
   * Checks every unfinished job's log as `booty replay --verify` does, parked jobs included, and
   * resumes those with work; marks the ones whose log does not check out damaged. Settles finished
   * and parked jobs whose report lags.
   */
  async boot(): Promise<string[]> {
    const { store } = this.options;
    // A worker whose queue cannot start would take deliveries and run nothing: it does not start.
    await this.leased?.ready();
    // One process owns a store without leases: whoever held its jobs before has stopped.
    if (!this.leased) await store.clearHeld();
    const unreported = await store.listUnreported();
    const lagging = new Set(unreported.map((j) => j.jobId));
    const resumed: string[] = [];
    const unfinished = await store.listJobs({ unfinished: true });
    // With leases, this worker may run any worker's job from the queue at once.
    if (this.leased || unfinished.length > 0 || unreported.length > 0) await this.load();
    for (const job of unfinished) {
      const checked = await this.bootCheck(job.jobId);
      if (!checked) continue;
      if (checked.damage) {
        // Not resumed in silence: marked, logged, and said on the issue, by one worker of those
        // booting.
        const marked = await this.markDamaged(job.jobId, checked.damage);
        if (marked) await this.tellDamaged(marked, checked.damage);
        continue;
      }
      if (isParked(checked.snapshot)) {
        // A parked job waits for an event, not for a slot. One that parked before its progress
        // comment caught up is shown as it stands; with leases it is offered instead: workers
        // booting together would each find no comment and each create one, while the lease lets
        // one worker at a time fold and settle it.
        if (!lagging.has(job.jobId)) continue;
        if (this.leased) await this.leased.offer([job.jobId]);
        else await this.settle(job.jobId, checked.snapshot, checked.events.length);
        continue;
      }
      // With leases, offering is idempotent: a job queued or running on another worker stays so.
      if (this.leased) await this.leased.offer([job.jobId]);
      else this.runHere(job.jobId);
      resumed.push(job.jobId);
    }
    // Finished jobs whose report lags are shown as they ended; a damaged one whose report did not
    // go out (GitHub failed, or the process stopped first) is told again, here alone: with leases,
    // workers booting together would each create the comment.
    for (const job of unreported.filter((j) => j.final)) {
      if (job.state === DAMAGED) {
        if (this.leased) continue;
        const checked = await this.bootCheck(job.jobId).catch(() => null);
        await this.tellDamaged(job, checked?.damage ?? damagedJob(job.jobId));
      } else if (this.leased) await this.leased.offer([job.jobId]);
      else {
        // A finished log that no longer reads is no reason not to start: it is reported.
        let snapshot: JobSnapshot;
        try {
          snapshot = this.loaded.foldJob(await readJobLog(store, job.jobId));
        } catch (err) {
          this.options.onError?.(err, job.jobId);
          continue;
        }
        await this.settle(job.jobId, snapshot, job.version);
      }
    }
    this.leased?.start();
    return resumed;
  }

  /**
   * A job's log checked for boot; null, the error reported, when a newer booty wrote rows this one
   * cannot read: that is no damage, and the job waits for a booty that reads them.
   */
  private async bootCheck(jobId: string): Promise<CheckedLog | null> {
    try {
      return await readCheckedLog(this.options.store, jobId);
    } catch (err) {
      if (!newerWriting(err)) throw err;
      // Handled: a worker of the newer release runs it (README: Operations, upgrades).
      this.options.onError?.(err, jobId, 'warn');
      return null;
    }
  }

  /**
   * Takes a job whose log does not check out out of the running: state `damaged`, final. Its
   * record when this call marked it (logged here; the caller tells its issue), null when it was
   * marked already (another worker, or an earlier delivery, found it first).
   */
  private async markDamaged(jobId: string, problem: BootyError): Promise<JobRecord | null> {
    const { store } = this.options;
    if (!(await store.markDamaged(jobId))) return null;
    this.options.onError?.(problem, jobId);
    return store.getJob(jobId);
  }

  private async tellDamaged(job: JobRecord, problem: BootyError) {
    for (const o of this.options.observers ?? []) {
      await o.damaged?.(job, problem).catch((err: unknown) => this.options.onError?.(err, job.jobId));
    }
  }

  /** Runs one unfinished job from its log (a no-op when it is finished, queued or running). */
  async resume(jobId: string) {
    if (!this.engine) await this.load();
    if ((await this.options.store.getJob(jobId))?.final === false) await this.enqueue(jobId);
  }

  /**
   * An outside event for a job, through its runner: the runner of a job under way here, or a new
   * one that appends to the log of a job that waits. A waiting job the event gave work starts.
   */
  async receive(jobId: string, event: OutsideEvent, delivery?: DeliveryRecord): Promise<ReceiveResult> {
    if (!this.engine) await this.load();
    const { leased } = this;
    for (let tries = 1, fresh = false; ; tries++) {
      // A runner here that has stopped (a conflict, a lapse, a shutdown) writes nothing more: the
      // event goes through a fresh runner, as it does once the log has moved on under this one.
      const here = fresh ? undefined : this.runners.get(jobId);
      const running = here?.isStopped ? undefined : here;
      const runner = running ?? this.runner(jobId, { quiet: true });
      try {
        const result = await runner.receive(event, delivery);
        const work = !isParked(runner.snapshot) && runner.snapshot.status !== 'done';
        // With leases, offered even when a runner here took it: that runner may have parked or
        // stopped before the event, and offering a job leased here already does nothing. A job no
        // run took is given its turn even when the event left it parked or ended it: the worker
        // that runs it folds and settles it, so its comment shows the event and its report is done.
        if (result === 'received' && (work || !running)) {
          if (leased) await leased.offer([jobId]);
          else if (!running) await this.enqueue(jobId, runner);
        }
        return result;
      } catch (err) {
        // The log does not check out: nothing was written, and the job is taken out of the running.
        const damage = damageIn(err);
        if (damage) {
          const marked = await this.markDamaged(jobId, damage);
          if (marked) this.tellLater(marked, damage);
          throw err;
        }
        if (tries >= CONFLICT_TRIES || !isBootyError(err, 'BOOTY_E_VERSION_CONFLICT')) throw err;
        // Without leases a job runs in this process only, and its runner's conflict is not retried.
        if (running && !leased) throw err;
        // The job ran on another worker, which appended between this read and this write: read
        // again. A runner here that met it has stopped, and its job is offered when it lets go.
        fresh = true;
      }
    }
  }

  /**
   * Cancels a job through its runner: appended and sent to its actor when it runs here, appended to
   * its log alone when it waits for a slot or runs nowhere. With a delivery, both commit together.
   */
  async cancel(
    jobId: string,
    cancel: { reason: z.infer<typeof CancelReason>; sender: string; deliveryId?: string | null },
    delivery?: DeliveryRecord,
  ): Promise<'cancelled' | 'duplicate' | 'finished'> {
    const event: JobCancelled = {
      type: 'JobCancelled',
      reason: cancel.reason,
      sender: cancel.sender,
      deliveryId: cancel.deliveryId ?? null,
      at: this.now(),
    };
    const result = await this.receive(jobId, event, delivery);
    return result === 'received' ? 'cancelled' : result === 'ignored' ? 'finished' : result;
  }

  /** Resolves with the job's final snapshot once it has run here (or at once if already finished). */
  async whenFinished(jobId: string): Promise<JobSnapshot> {
    // A job cancelled while it waited for a slot is finished now, not when the slot frees up.
    const pending = this.finished.get(jobId);
    if (pending && !(await this.options.store.getJob(jobId))?.final) return pending;
    if (!this.engine) await this.load();
    return this.loaded.foldJob(await readJobLog(this.options.store, jobId));
  }

  /** Resolves when no job is running or queued, and no damaged job's report is under way. */
  async onIdle(): Promise<void> {
    await this.queue.onIdle();
    await Promise.all(this.telling);
  }

  /** Tells a damaged job's issue without making the caller (a delivery's answer) wait for GitHub. */
  private tellLater(job: JobRecord, problem: BootyError) {
    const telling = this.tellDamaged(job, problem).finally(() => this.telling.delete(telling));
    this.telling.add(telling);
  }

  /**
   * Takes no more work and stops every job: from the moment the jobs stop, no effect's outcome is
   * written, so whatever the caller aborts next (requests, processes) cannot fail a job.
   * With `drainMs`, a job running here first finishes the step under way (its outcome is logged,
   * and it stops before the next), within that bound; the rest are handed back at the bound, or at
   * once on `hurry()`. Jobs waiting for a slot are handed back at once. Deliveries are still taken
   * while the steps finish (a new job waits for another worker, or the next start). Resolves with
   * what each job did.
   */
  async shutdown({ drainMs = 0 }: { drainMs?: number } = {}): Promise<DrainReport> {
    this.taking = false;
    this.held.stop();
    // No job is leased here from now on only to be handed straight back.
    this.leased?.stopTaking();
    const report: DrainReport = { finishedStep: [], handedBack: [] };
    for (const [jobId, runner] of this.runners) {
      if (this.started.has(jobId)) continue;
      runner.stop();
      report.handedBack.push(jobId);
    }
    const running = [...this.started];
    if (drainMs > 0 && running.length > 0) {
      const drain: Drain = { stepped: new Set(), hurry: () => {} };
      this.drain = drain;
      const hurried = new Promise<void>((resolve) => {
        drain.hurry = resolve;
      });
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.queue.onIdle(),
        hurried,
        new Promise((resolve) => {
          timer = setTimeout(resolve, drainMs);
        }),
      ]);
      clearTimeout(timer);
      this.drain = null;
      for (const jobId of running) {
        if (drain.stepped.has(jobId) || !this.started.has(jobId)) report.finishedStep.push(jobId);
      }
    }
    this.accepting = false;
    for (const [jobId, runner] of this.runners) {
      if (!this.started.has(jobId) || runner.isStopped) continue;
      runner.stop();
      if (!report.handedBack.includes(jobId)) report.handedBack.push(jobId);
    }
    await this.queue.onIdle();
    // Leased jobs stopped here go back to the queue for another worker (released).
    await this.leased?.stop();
    return report;
  }

  /** A drain under way ends now: the steps still running are handed back (a second SIGTERM). */
  hurry() {
    this.drain?.hurry();
  }

  /**
   * Starts a job: appends its JobRequested with the delivery that asked, in one commit, and gives
   * it its turn. `duplicate`: the delivery was seen before, and nothing was written; `taken`:
   * another writer started a job for the issue at the same moment (BOOTY_E_ISSUE_HAS_JOB).
   */
  async request(
    jobId: string,
    delivery: DeliveryRecord,
    request: JobRequest,
  ): Promise<'created' | 'duplicate' | 'taken'> {
    if (!this.engine) await this.load();
    const created = await this.create(jobId, delivery, request).catch((err: unknown) => {
      if (isBootyError(err, 'BOOTY_E_ISSUE_HAS_JOB')) return 'taken' as const;
      throw err;
    });
    if (created === 'taken') return created;
    if (!created) return 'duplicate';
    this.notify(created, !this.leased);
    await this.enqueue(jobId);
    return 'created';
  }

  /** Appends the job's JobRequested with its delivery; null when the delivery was seen before. */
  private async create(
    jobId: string,
    delivery: DeliveryRecord,
    request: JobRequest,
  ): Promise<JobChange | null> {
    const { store } = this.options;
    const earlier = await store.jobsForIssue(repoKey(request.repo), request.issue.number);
    const last = earlier.at(-1);
    const previousPr = last ? this.loaded.foldJob(await readJobLog(store, last.jobId)).context.pr : null;
    const parsed = JobRequested.parse({
      ...request,
      type: 'JobRequested',
      jobId,
      deliveryId: delivery.deliveryId,
      requestedAt: this.now(),
      settings: {
        ...this.options.settings,
        selfModification: this.options.isSelf?.(request.repo) ?? false,
      },
      // A fresh attempt after a finished one works on its own branch and links the earlier PR.
      run: earlier.length + 1,
      previous: last
        ? { jobId: last.jobId, pr: previousPr ? { number: previousPr.number, url: previousPr.url } : null }
        : null,
    });
    const initial = this.loaded.initialSnapshot(parsed);
    const { type, ...data } = parsed;
    const appended = await store.append(
      jobId,
      0,
      [
        {
          type,
          version: catalogue.JobRequested.version,
          data,
          state: stateName(initial),
          meta: {
            machineVersion: MACHINE_VERSION,
            deliveryId: delivery.deliveryId,
            ...(this.options.worker ? { worker: this.options.worker } : {}),
          },
        },
      ],
      { job: { ...this.loaded.jobUpdate(initial), installation: parsed.installationId }, delivery },
    );
    return appended.duplicate ? null : { jobId, version: 1, eventType: type, snapshot: initial };
  }

  /** Loads the job engine. Callers skip it once loaded, so a loaded supervisor's turns take no extra pause. */
  private async load(): Promise<void> {
    this.engine ??= await loadJobEngine();
  }

  /** The job engine, loaded by every entry that leads to a job (boot with jobs, request, receive, resume). */
  private get loaded(): JobEngine {
    if (!this.engine) throw new Error('the job engine is used before it was loaded');
    return this.engine;
  }

  /** `quiet`: a runner that only appends an outside event, whose conflicts are retried, not reported. */
  private runner(jobId: string, { quiet = false } = {}): JobRunner {
    const runner: JobRunner = new this.loaded.JobRunner(jobId, {
      store: this.options.store,
      effects: this.options.effects,
      effectOptions: { clock: this.options.clock, observe: this.options.observeEffect },
      worker: this.options.worker,
      // With leases, only the runner of the job's run here speaks for it: not a runner that only
      // appended an event for a job that runs on another worker, nor one whose run has ended.
      onChange: (change) => {
        this.notify(change, !this.leased || this.runners.get(jobId) === runner);
        // Draining: the step under way has its outcome logged; the job stops before the next.
        if (this.drain && STEP_OUTCOMES.has(change.eventType) && this.runners.get(jobId) === runner) {
          this.drain.stepped.add(jobId);
          runner.stop();
        }
      },
      inspect: this.options.inspect,
      onError: (err) => {
        const conflict = this.stoppedOn(jobId, err);
        if (!(quiet && conflict)) this.options.onError?.(err, jobId);
      },
    });
    return runner;
  }

  /**
   * A job's run stopped on an error: a store fault pauses it until the store takes writes (not
   * until a restart); with leases, anything but a conflict halts it, so its lease is let go with a
   * wait (src/engine/halt-delay.ts). True when it was a conflict: another writer, not a fault.
   */
  private stoppedOn(jobId: string, err: unknown): boolean {
    const storeFault = this.options.health?.failed(err) === true;
    if (storeFault) this.paused.add(jobId);
    const conflict =
      isBootyError(err, 'BOOTY_E_VERSION_CONFLICT') || isBootyError(err, 'BOOTY_E_DELIVERY_RACE');
    if (!conflict) this.leased?.halt(jobId, { error: err, storeFault });
    return conflict;
  }

  /** Why no delivery is taken now: shutting down, or a store that takes no writes. */
  refusal(): BootyError | null {
    const { health } = this.options;
    if (health && !health.ok) return health.error();
    return this.accepting ? null : new BootyError('BOOTY_E_SHUTTING_DOWN');
  }

  /** A store fault becomes the health's 503 (and marks the store failing); anything else stays. */
  storeError(err: unknown): unknown {
    const { health } = this.options;
    return health?.failed(err) ? health.error() : err;
  }

  /**
   * The store takes writes again: every paused job resumes from its log, as after a restart; with
   * leases, here, on the lease it kept (renewed first).
   */
  resumePaused() {
    const { leased } = this;
    for (const jobId of [...this.paused]) {
      this.paused.delete(jobId);
      if (!leased) void this.enqueue(jobId).catch((err: unknown) => this.options.onError?.(err, jobId));
    }
    leased?.resumePaused();
  }

  /** Jobs waiting for the store. */
  get pausedJobs(): string[] {
    return [...this.paused];
  }

  /**
   * Gives a job its turn: here, or with leases, on whichever worker leases it (offered, unless it
   * runs here now). `folded`: a runner that has just read the job's log, so it is not read twice.
   */
  private async enqueue(jobId: string, folded?: JobRunner): Promise<void> {
    if (!this.leased) return void this.runHere(jobId, folded);
    if (this.runners.has(jobId)) return;
    await this.leased.offer([jobId]);
  }

  private runHere(jobId: string, folded?: JobRunner): Promise<JobSnapshot> | undefined {
    if (!this.taking || this.runners.has(jobId)) return;
    // The runner exists from now on, so a cancel while the job waits for a slot goes through it.
    const runner = folded ?? this.runner(jobId);
    this.runners.set(jobId, runner);
    let parked: JobSnapshot | null = null;
    const done = this.queue.add(async () => {
      try {
        if (!this.taking || runner.isStopped)
          return this.loaded.foldJob(await readJobLog(this.options.store, jobId));
        const recheckAt = await this.gated(jobId);
        if (recheckAt !== null) {
          this.held.add(jobId, recheckAt);
          return runner.snapshot;
        }
        this.started.add(jobId);
        await this.hold(jobId);
        if (this.leased) this.tell((o) => o.running?.(jobId), jobId);
        const snapshot = await runner.run();
        if (isParked(snapshot)) parked = snapshot;
        // Settled at the version its snapshot stands at, read together: an event another worker
        // appended since is not marked shown, so a later fold still shows it.
        if (snapshot.status === 'done' || isParked(snapshot))
          await this.settle(jobId, runner.snapshot, runner.version);
        return snapshot;
      } catch (err) {
        // The log could not be read or folded: not offered straight back to meet the same fault.
        this.stoppedOn(jobId, err);
        const damage = damageIn(err);
        if (!damage) this.options.onError?.(err, jobId);
        else {
          const marked = await this.markDamaged(jobId, damage);
          if (marked) await this.tellDamaged(marked, damage);
        }
        return runner.snapshot;
      } finally {
        this.runners.delete(jobId);
        // A job paused for the store keeps its holder: with leases, its lease too.
        if (this.started.delete(jobId) && !this.paused.has(jobId)) await this.letGo(jobId);
        // A finished job is answered from its log from now on; the map only holds jobs under way.
        this.finished.delete(jobId);
        // Its lease may be another worker's next: nothing of it is written from here after that.
        if (this.leased) await this.leaving(jobId);
        // An event that came while the job parked found its runner still here, which wrote it but
        // runs no more (its actor stopped): the job runs again to take it (or, ended by it, to settle).
        // With leases, the lease is let go first and the job offered again (released).
        if (
          !this.leased &&
          this.taking &&
          parked !== null &&
          (runner.snapshot !== parked || (await this.options.store.streamVersion(jobId)) > runner.version)
        )
          this.runHere(jobId);
      }
    }) as Promise<JobSnapshot>;
    this.finished.set(jobId, done);
    return done;
  }

  /** When a job the gate holds back is looked at again; null when it may start (or has started). */
  private async gated(jobId: string): Promise<number | null> {
    const { gate, store } = this.options;
    if (!gate || (await store.streamVersion(jobId)) !== 1) return null;
    const job = await store.getJob(jobId);
    return (job && (await gate.hold(job))?.recheckAt) ?? null;
  }

  /** New jobs waiting for the gate (the per-day dollar cap). */
  get heldJobs(): string[] {
    return this.held.jobs;
  }

  /** Marks the job as this worker's, for `booty jobs`; a store that refuses is no reason not to run. */
  private async hold(jobId: string) {
    const { worker, store } = this.options;
    if (worker) await store.markHeld(jobId, worker).catch(() => undefined);
  }

  private async letGo(jobId: string) {
    const { worker, store } = this.options;
    if (worker) await store.markLetGo(jobId, worker).catch(() => undefined);
  }

  private notify(change: JobChange, runsHere: boolean) {
    const observed: ObservedChange = { ...change, runsHere };
    this.tell((o) => o.changed?.(observed), change.jobId);
  }

  /** Calls every observer; one that throws is reported, and the others are still called. */
  private tell(call: (o: JobObserver) => void, jobId: string) {
    for (const o of this.options.observers ?? []) {
      try {
        call(o);
      } catch (err) {
        this.options.onError?.(err, jobId);
      }
    }
  }

  private async leaving(jobId: string) {
    for (const o of this.options.observers ?? []) {
      try {
        await o.leaving?.(jobId);
      } catch (err) {
        this.options.onError?.(err, jobId);
      }
    }
  }

  private async settle(jobId: string, snapshot: JobSnapshot, version: number) {
    for (const o of this.options.observers ?? []) {
      try {
        await o.settled?.(jobId, snapshot, version);
      } catch (err) {
        this.options.onError?.(err, jobId);
      }
    }
  }

  /** The time now, by the clock jobs are stamped with. */
  now() {
    return (this.options.clock ?? Date.now)();
  }
}

/** What a shutdown did with the jobs running here: each finished its step, or was handed back. */
export interface DrainReport {
  finishedStep: string[];
  handedBack: string[];
}

interface Drain {
  /** Jobs whose step's outcome was logged during the drain (they stopped before the next). */
  stepped: Set<string>;
  hurry: () => void;
}

/** The events that end a step: a drain lets a job run until one of them is logged. */
const STEP_OUTCOMES = new Set(['StepSucceeded', 'StepFailed']);

/** Appends an outside event that meet another worker's append are read and tried again this often. */
const CONFLICT_TRIES = 5;

/** The state of a job whose log does not check out (store.markDamaged): final, it takes no event. */
export const DAMAGED = 'damaged';

export const damagedJob = (jobId: string) => new BootyError('BOOTY_E_JOB_DAMAGED', { jobId });

export function newJobId(now: number): string {
  return `${now.toString(36)}-${randomBytes(3).toString('hex')}`;
}
