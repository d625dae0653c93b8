import type { OutsideEvent } from '../engine/job-runner.js';
import { DAMAGED, damagedJob, newJobId, type Supervisor } from '../engine/supervisor.js';
import { type RepoRef, repoKey } from '../events/job-events.js';
import type { Delivery, Intent, JobTarget, WakeIntent } from '../forges/forge.js';
import type { EventStore } from '../store/event-store.js';
import type { DeliveryRecord, JobRecord } from '../store/records.js';

// Where a delivery becomes work: it is recorded, and acted on, in the same commit; a repeated
// delivery changes nothing. Intake finds the job a delivery is about and hands the engine (the
// supervisor) what it asks: a new job, a cancel, an event for a job that waits. Deliveries take
// turns, so two for one issue cannot both find it without a job; deliveries that start nothing
// share commits.

export type SubmitResult =
  | { outcome: 'duplicate' }
  | { outcome: 'created'; jobId: string }
  | { outcome: 'already-active'; jobId: string }
  | { outcome: 'cancelled'; jobIds: string[] }
  | { outcome: 'woke'; jobId: string }
  | { outcome: 'ignored'; reason: string };

/** Why an event reached no job: it had ended, or the machine had nothing to do with the event. */
export const JOB_FINISHED = 'the job already finished';
export const NOTHING_NEW = 'nothing new for the job';

type Store = Pick<EventStore, 'findActiveJob' | 'findJobForPr' | 'jobsForIssue' | 'recordDeliveries'>;

export class Intake {
  private submits: Promise<unknown> = Promise.resolve();
  private readonly ignored: {
    delivery: DeliveryRecord;
    done: (fresh: boolean) => void;
    fail: (err: unknown) => void;
  }[] = [];

  constructor(
    private readonly engine: Supervisor,
    private readonly store: Store = engine.store,
  ) {}

  /**
   * Records a delivery and acts on it in the same commit; a repeated delivery changes nothing.
   * Deliveries that start nothing go through `ignore`, which batches their commits.
   */
  submit(delivery: Delivery, intent: Exclude<Intent, { kind: 'ignore' }>): Promise<SubmitResult> {
    const refused = this.engine.refusal();
    if (refused) return Promise.reject(refused);
    const next = this.submits.then(() =>
      this.submitNow(delivery, intent).catch((err: unknown) => {
        throw this.engine.storeError(err);
      }),
    );
    this.submits = next.catch(() => {});
    return next;
  }

  private async submitNow(
    delivery: Delivery,
    intent: Exclude<Intent, { kind: 'ignore' }>,
  ): Promise<SubmitResult> {
    const record = (outcome: string, jobId: string | null = null): DeliveryRecord => ({
      deliveryId: delivery.id,
      event: delivery.event,
      action: delivery.action,
      outcome,
      jobId,
    });
    /** The delivery recorded on its own; false when it was seen before. */
    const alone = async (d: DeliveryRecord) => (await this.store.recordDeliveries([d]))[0] === true;
    const ignored = async (d: DeliveryRecord, reason: string): Promise<SubmitResult> =>
      (await alone(d)) ? { outcome: 'ignored', reason } : { outcome: 'duplicate' };
    if (intent.kind === 'wake') return this.wake(delivery, intent, record, ignored);

    const repo = intent.kind === 'cancel' ? intent.repo : intent.request.repo;
    const issue = intent.kind === 'cancel' ? intent.issue : intent.request.issue.number;
    const active = await this.store.findActiveJob(fullName(repo), issue);
    if (intent.kind === 'cancel') {
      if (!active) {
        const damaged = await this.damagedJobOf(fullName(repo), issue);
        if (damaged) throw damagedJob(damaged.jobId);
        return ignored(record('cancelled'), 'no active job for this issue');
      }
      const cancel = { reason: intent.reason, sender: intent.sender, deliveryId: delivery.id };
      const done = await this.engine.cancel(active.jobId, cancel, record('cancelled', active.jobId));
      if (done === 'duplicate') return { outcome: 'duplicate' };
      // Finished between the lookup and the cancel: nothing was appended, so record the delivery alone.
      if (done === 'finished') return ignored(record('cancelled', active.jobId), JOB_FINISHED);
      return { outcome: 'cancelled', jobIds: [active.jobId] };
    }
    if (active) {
      return (await alone(record('already-active', active.jobId)))
        ? { outcome: 'already-active', jobId: active.jobId }
        : { outcome: 'duplicate' };
    }
    const jobId = newJobId(this.engine.now());
    const started = await this.engine.request(jobId, record('created', jobId), intent.request);
    if (started === 'duplicate') return { outcome: 'duplicate' };
    if (started === 'created') return { outcome: 'created', jobId };
    // Another worker started a job for the issue at the same moment: this delivery found it active.
    const winner = await this.store.findActiveJob(fullName(repo), issue);
    return (await alone(record('already-active', winner?.jobId ?? null)))
      ? { outcome: 'already-active', jobId: winner?.jobId ?? '' }
      : { outcome: 'duplicate' };
  }

  /**
   * The job a PR, branch or issue belongs to: the unfinished one, else a damaged one, which takes
   * no event (a delivery for it is answered BOOTY_E_JOB_DAMAGED).
   */
  async jobFor(repo: RepoRef, target: JobTarget): Promise<JobRecord | null> {
    const name = fullName(repo);
    if (target.pr != null || target.branch != null) {
      const byPr = await this.store.findJobForPr(name, { pr: target.pr, branch: target.branch });
      if (byPr || target.issue == null) return byPr;
    }
    if (target.issue == null) return null;
    return (await this.store.findActiveJob(name, target.issue)) ?? this.damagedJobOf(name, target.issue);
  }

  /** The issue's latest job when it is damaged: no job has been started for the issue since. */
  private async damagedJobOf(repo: string, issue: number): Promise<JobRecord | null> {
    const last = (await this.store.jobsForIssue(repo, issue)).at(-1);
    return last?.state === DAMAGED ? last : null;
  }

  /**
   * Hands an event about a job's PR to the job: appended with its delivery in one commit, then sent
   * to its actor when it runs here, or, when it is parked, the job starts again from its log if
   * the event gave it work.
   */
  private async wake(
    delivery: Delivery,
    intent: WakeIntent,
    record: (outcome: string, jobId?: string | null) => DeliveryRecord,
    ignored: (d: DeliveryRecord, reason: string) => Promise<SubmitResult>,
  ): Promise<SubmitResult> {
    const job = await this.jobFor(intent.repo, intent.target);
    if (!job) return ignored(record('ignored'), 'no unfinished job for this pull request or issue');
    if (job.state === DAMAGED) throw damagedJob(job.jobId);
    const event = { ...intent.event, deliveryId: delivery.id, at: this.engine.now() } as OutsideEvent;
    const done = await this.engine.receive(job.jobId, event, record('woke', job.jobId));
    if (done === 'duplicate') return { outcome: 'duplicate' };
    if (done === 'finished' || done === 'ignored')
      return ignored(record('ignored', job.jobId), done === 'finished' ? JOB_FINISHED : NOTHING_NEW);
    return { outcome: 'woke', jobId: job.jobId };
  }

  /**
   * Records a delivery that starts nothing, durably, before the promise resolves. Deliveries that
   * arrive in the same turn of the event loop share one commit (group commit): most of what a
   * forge's App receives is of this kind, and a commit per delivery was most of its cost.
   */
  ignore(delivery: Delivery, reason: string): Promise<SubmitResult> {
    const refused = this.engine.refusal();
    if (refused) return Promise.reject(refused);
    return new Promise((resolve, reject) => {
      if (this.ignored.length === 0) setImmediate(() => void this.flushIgnored());
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

  /** Writes the deliveries waiting to be recorded; shutdown awaits it, so none is lost. */
  async flushIgnored() {
    const batch = this.ignored.splice(0);
    if (batch.length === 0) return;
    let fresh: boolean[];
    try {
      fresh = await this.store.recordDeliveries(batch.map((b) => b.delivery));
    } catch (err) {
      const reported = this.engine.storeError(err);
      for (const b of batch) b.fail(reported);
      return;
    }
    for (const [i, b] of batch.entries()) b.done(fresh[i]!);
  }
}

const fullName = repoKey;
