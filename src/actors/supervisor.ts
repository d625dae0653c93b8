import { randomBytes } from 'node:crypto';
import PQueue from 'p-queue';
import type { InspectionEvent } from 'xstate';
import type { z } from 'zod';
import { BootyError } from '../errors.js';
import { catalogue } from '../events/catalogue.js';
import {
  type CancelReason,
  type JobCancelled,
  JobRequested,
  type JobRequestedInput,
  type RepoRef,
} from '../events/job-events.js';
import { MACHINE_VERSION } from '../events/versions.js';
import { foldJob, initialSnapshot, type JobSnapshot, nextSnapshot, stateName } from '../machines/fold.js';
import type { JobMachine } from '../machines/job.js';
import type { DeliveryRecord, EventStore, JobRecord } from '../store/event-store.js';
import { brokenAt } from '../store/hash-chain.js';
import { readJobLog, toLogEntry } from '../store/job-log.js';
import { type JobChange, JobRunner, jobUpdate } from './job-runner.js';

// Owns every running job in this process: starts them within the concurrency bound, resumes the
// unfinished ones at start-up, routes cancels, and stops cleanly. All appends to a job's stream go
// through here or through its runner, so a stream has one writer.

export interface JobObserver {
  /** After each event is logged. Must not throw or block. */
  changed?(change: JobChange): void;
  /** Awaited when a job finishes (or on boot for a finished job whose report lags), e.g. to flush a comment. */
  settled?(jobId: string, snapshot: JobSnapshot, version: number): Promise<void>;
  /** Awaited at boot for an unfinished job whose log does not check out: it will not run. */
  damaged?(job: JobRecord, problem: BootyError): Promise<void>;
}

export interface Delivery {
  id: string;
  event: string;
  action: string | null;
}

export type Intent =
  | {
      kind: 'request';
      request: Omit<JobRequestedInput, 'type' | 'jobId' | 'requestedAt' | 'settings' | 'deliveryId'>;
    }
  | { kind: 'cancel'; repo: RepoRef; issue: number; reason: z.infer<typeof CancelReason>; sender: string }
  | { kind: 'ignore'; reason: string };

export type SubmitResult =
  | { outcome: 'duplicate' }
  | { outcome: 'created'; jobId: string }
  | { outcome: 'already-active'; jobId: string }
  | { outcome: 'cancelled'; jobIds: string[] }
  | { outcome: 'ignored'; reason: string };

export interface SupervisorOptions {
  store: EventStore;
  /** The job machine with real (or test) effects provided. */
  machine: JobMachine;
  concurrency?: number;
  /** Settings stamped into every new job, e.g. from the environment. */
  settings?: Partial<JobRequested['settings']>;
  /** Repositories (owner/name) whose jobs modify booty itself. */
  isSelf?: (repo: RepoRef) => boolean;
  observers?: JobObserver[];
  inspect?: (event: InspectionEvent) => void;
  onError?: (err: unknown, jobId: string) => void;
  clock?: () => number;
}

export class Supervisor {
  private readonly options: SupervisorOptions;
  private readonly queue: PQueue;
  private readonly runners = new Map<string, JobRunner>();
  private readonly queued = new Set<string>();
  private readonly finished = new Map<string, Promise<JobSnapshot>>();
  private accepting = true;
  private readonly ignored: {
    delivery: DeliveryRecord;
    done: (fresh: boolean) => void;
    fail: (err: unknown) => void;
  }[] = [];

  constructor(options: SupervisorOptions) {
    this.options = options;
    this.queue = new PQueue({ concurrency: Math.max(1, options.concurrency ?? 2) });
  }

  get store() {
    return this.options.store;
  }

  get running(): string[] {
    return [...this.runners.keys()];
  }

  /** Resumes every unfinished job from its log, and settles finished jobs whose report lags. */
  async boot(): Promise<string[]> {
    const { store } = this.options;
    for (const job of store.listUnreported().filter((j) => j.final)) {
      const snapshot = foldJob(readJobLog(store, job.jobId));
      await this.settle(job.jobId, snapshot, job.version);
    }
    const resumed: string[] = [];
    for (const job of store.listJobs({ unfinished: true })) {
      const problem = logProblem(store, job.jobId);
      if (!problem) {
        this.enqueue(job.jobId);
        resumed.push(job.jobId);
        continue;
      }
      // Not resumed in silence: marked, logged, and said on the issue.
      store.markDamaged(job.jobId);
      this.options.onError?.(problem, job.jobId);
      for (const o of this.options.observers ?? []) {
        await o.damaged?.(job, problem).catch((err: unknown) => this.options.onError?.(err, job.jobId));
      }
    }
    return resumed;
  }

  /** Runs one unfinished job from its log (a no-op when it is finished, queued or running). */
  resume(jobId: string) {
    if (this.options.store.getJob(jobId)?.final === false) this.enqueue(jobId);
  }

  /**
   * Records a delivery and acts on it in one transaction; a repeated delivery changes nothing.
   * Deliveries that start nothing go through `ignore`, which batches their commits.
   */
  submit(delivery: Delivery, intent: Exclude<Intent, { kind: 'ignore' }>): SubmitResult {
    if (!this.accepting) throw new BootyError('BOOTY_E_SHUTTING_DOWN');
    const { store } = this.options;
    let created: JobChange | null = null;
    const record = (outcome: string, jobId: string | null = null) =>
      store.recordDelivery({
        deliveryId: delivery.id,
        event: delivery.event,
        action: delivery.action,
        outcome,
        jobId,
      });
    const result = store.transaction((): SubmitResult => {
      if (intent.kind === 'cancel') {
        const active = store.findActiveJob(`${intent.repo.owner}/${intent.repo.name}`, intent.issue);
        if (!record('cancelled', active?.jobId ?? null)) return { outcome: 'duplicate' };
        if (!active) return { outcome: 'ignored', reason: 'no active job for this issue' };
        this.cancel(active.jobId, { reason: intent.reason, sender: intent.sender, deliveryId: delivery.id });
        return { outcome: 'cancelled', jobIds: [active.jobId] };
      }
      const { repo, issue } = intent.request;
      const active = store.findActiveJob(`${repo.owner}/${repo.name}`, issue.number);
      if (active)
        return record('already-active', active.jobId)
          ? { outcome: 'already-active', jobId: active.jobId }
          : { outcome: 'duplicate' };
      const jobId = newJobId(this.now());
      if (!record('created', jobId)) return { outcome: 'duplicate' };
      created = this.create(jobId, delivery.id, intent.request);
      return { outcome: 'created', jobId };
    });
    if (created) this.notify(created);
    if (result.outcome === 'created') this.enqueue(result.jobId);
    return result;
  }

  /**
   * Records a delivery that starts nothing, durably, before the promise resolves. Deliveries that
   * arrive in the same turn of the event loop share one commit (group commit): most of what a
   * GitHub App receives is of this kind, and a commit per delivery was most of its cost.
   */
  ignore(delivery: Delivery, reason: string): Promise<SubmitResult> {
    if (!this.accepting) return Promise.reject(new BootyError('BOOTY_E_SHUTTING_DOWN'));
    return new Promise((resolve, reject) => {
      if (this.ignored.length === 0) setImmediate(() => this.flushIgnored());
      this.ignored.push({
        delivery: {
          deliveryId: delivery.id,
          event: delivery.event,
          action: delivery.action,
          outcome: 'ignored',
          jobId: null,
        },
        done: (fresh) => resolve(fresh ? { outcome: 'ignored', reason } : { outcome: 'duplicate' }),
        fail: reject,
      });
    });
  }

  private flushIgnored() {
    const batch = this.ignored.splice(0);
    if (batch.length === 0) return;
    let fresh: boolean[];
    try {
      fresh = this.options.store.transaction(() =>
        batch.map((b) => this.options.store.recordDelivery(b.delivery)),
      );
    } catch (err) {
      for (const b of batch) b.fail(err);
      return;
    }
    for (const [i, b] of batch.entries()) b.done(fresh[i]!);
  }

  /** Cancels a job: through its actor when it runs here, else by appending to its log directly. */
  cancel(
    jobId: string,
    cancel: { reason: z.infer<typeof CancelReason>; sender: string; deliveryId?: string | null },
  ) {
    const event: JobCancelled = {
      type: 'JobCancelled',
      reason: cancel.reason,
      sender: cancel.sender,
      deliveryId: cancel.deliveryId ?? null,
      at: this.now(),
    };
    const runner = this.runners.get(jobId);
    if (runner?.send(event)) return;
    const { store } = this.options;
    const events = readJobLog(store, jobId);
    const snapshot = foldJob(events);
    if (snapshot.status === 'done') return;
    const next = nextSnapshot(snapshot, event);
    const { type, ...data } = event;
    store.append(
      jobId,
      events.length,
      [
        {
          type,
          version: catalogue.JobCancelled.version,
          data,
          state: stateName(next),
          meta: { machineVersion: MACHINE_VERSION },
        },
      ],
      jobUpdate(next),
    );
    this.notify({ jobId, version: events.length + 1, eventType: type, snapshot: next });
  }

  /** Resolves with the job's final snapshot once it has run here (or at once if already finished). */
  whenFinished(jobId: string): Promise<JobSnapshot> {
    // A job cancelled while it waited for a slot is finished now, not when the slot frees up.
    const pending = this.finished.get(jobId);
    if (pending && !this.options.store.getJob(jobId)?.final) return pending;
    return Promise.resolve(foldJob(readJobLog(this.options.store, jobId)));
  }

  /** Resolves when no job is running or queued. */
  onIdle(): Promise<void> {
    return this.queue.onIdle();
  }

  /** Takes no new work and stops every running actor; the log keeps everything for the next start. */
  async shutdown(): Promise<void> {
    this.accepting = false;
    this.flushIgnored();
    this.queue.clear();
    this.queued.clear();
    for (const runner of this.runners.values()) runner.stop();
    await this.queue.onIdle();
  }

  private create(
    jobId: string,
    deliveryId: string,
    request: Intent & { kind: 'request' } extends { request: infer R } ? R : never,
  ) {
    const earlier = this.options.store.jobsForIssue(
      `${request.repo.owner}/${request.repo.name}`,
      request.issue.number,
    );
    const last = earlier.at(-1);
    const previousPr = last ? foldJob(readJobLog(this.options.store, last.jobId)).context.pr : null;
    const parsed = JobRequested.parse({
      ...request,
      type: 'JobRequested',
      jobId,
      deliveryId,
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
    const initial = initialSnapshot(parsed);
    const { type, ...data } = parsed;
    this.options.store.append(
      jobId,
      0,
      [
        {
          type,
          version: catalogue.JobRequested.version,
          data,
          state: stateName(initial),
          meta: { machineVersion: MACHINE_VERSION, deliveryId },
        },
      ],
      jobUpdate(initial),
    );
    return { jobId, version: 1, eventType: type, snapshot: initial };
  }

  private enqueue(jobId: string) {
    if (!this.accepting || this.queued.has(jobId) || this.runners.has(jobId)) return;
    this.queued.add(jobId);
    const done = this.queue.add(async () => {
      this.queued.delete(jobId);
      if (!this.accepting) return foldJob(readJobLog(this.options.store, jobId));
      const runner = new JobRunner(jobId, {
        store: this.options.store,
        machine: this.options.machine,
        onChange: (change) => this.notify(change),
        inspect: this.options.inspect,
        onError: (err) => this.options.onError?.(err, jobId),
      });
      this.runners.set(jobId, runner);
      try {
        const snapshot = await runner.run();
        if (snapshot.status === 'done')
          await this.settle(jobId, snapshot, this.options.store.streamVersion(jobId));
        return snapshot;
      } catch (err) {
        this.options.onError?.(err, jobId);
        return runner.snapshot;
      } finally {
        this.runners.delete(jobId);
        // A finished job is answered from its log from now on; the map only holds jobs under way.
        this.finished.delete(jobId);
      }
    }) as Promise<JobSnapshot>;
    this.finished.set(jobId, done);
  }

  private notify(change: JobChange) {
    for (const o of this.options.observers ?? []) {
      try {
        o.changed?.(change);
      } catch (err) {
        this.options.onError?.(err, change.jobId);
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

  private now() {
    return (this.options.clock ?? Date.now)();
  }
}

/** Why a job's log cannot be resumed: an edit the hash chain shows, or a row that does not parse. */
function logProblem(store: EventStore, jobId: string): BootyError | null {
  const rows = store.readStream(jobId);
  const broken = brokenAt(rows);
  if (broken) return new BootyError('BOOTY_E_LOG_TAMPERED', { jobId, ...broken });
  try {
    rows.forEach(toLogEntry);
    return null;
  } catch (err) {
    return err instanceof BootyError
      ? err
      : new BootyError('BOOTY_E_EVENT_INVALID', { type: 'log', reason: String(err) });
  }
}

export function newJobId(now: number): string {
  return `${now.toString(36)}-${randomBytes(3).toString('hex')}`;
}
