import { type Actor, createActor, type EventObject, type InspectionEvent } from 'xstate';
import { BootyError } from '../errors.js';
import { catalogue, type DomainEvent } from '../events/catalogue.js';
import type { ConversationEvent } from '../events/conversation-events.js';
import type { EffectName, Usage } from '../events/effect-results.js';
import { type JobCancelled, repoKey } from '../events/job-events.js';
import { MACHINE_VERSION } from '../events/versions.js';
import type { EffectImpl, EffectImpls } from '../machines/effect-contract.js';
import { type JobSnapshot, jobInput, nextSnapshot } from '../machines/fold.js';
import { type JobMachine, jobMachine } from '../machines/job.js';
import { tokensSpent } from '../machines/job-context.js';
import { isParked, stateName } from '../machines/job-states.js';
import { type MachineEvent, toDomainEvent } from '../machines/machine-events.js';
import type { EventStore } from '../store/event-store.js';
import type { DeliveryRecord, EventMeta, JobUpdate } from '../store/records.js';
import { type EffectOptions, effectActors } from './effect.js';
import { readCheckedLog } from './log-check.js';

// Runs one job's actor and writes its log ahead of what the job does. Each event is decided once:
// the live actor takes an effect's outcome (or an outside event) and makes its own transition, and
// the runner records that transition, the state it reached, in the order the actor took them. No
// effect acts before the event that started it is written: invokeEffect waits for the write first
// (`ready`), and if the write fails the job stops and the effect never runs. A job that does not
// run here (parked, waiting for a slot) takes an outside event by one pure transition of its
// folded snapshot, written, and its next run restores the actor from that snapshot. A crash after
// an append loses nothing: the next start folds the log and resumes with only the in-flight effect
// re-run.

export interface JobChange {
  jobId: string;
  version: number;
  eventType: string;
  snapshot: JobSnapshot;
  /** The model tokens this event's own effect spent, when it spent any. */
  tokens?: EventMeta['tokens'];
}

export interface RunnerOptions {
  store: EventStore;
  /** The effects the machine invokes (the real ones, or a test's). */
  effects: Partial<EffectImpls>;
  effectOptions?: Omit<EffectOptions, 'ready'>;
  onChange?: (change: JobChange) => void;
  /** The worker that runs the job, written into the metadata of every event this runner appends. */
  worker?: string;
  /** Extra inspection observers, e.g. the Stately inspector. */
  inspect?: (event: InspectionEvent) => void;
  onError?: (err: unknown) => void;
}

/** An event from outside the job: a cancel, or what happened on GitHub to its PR. */
export type OutsideEvent = JobCancelled | ConversationEvent;

export type ReceiveResult = 'received' | 'duplicate' | 'finished' | 'ignored';

export class JobRunner {
  readonly jobId: string;
  private readonly options: RunnerOptions;
  private actor: Actor<JobMachine> | null = null;
  private folded!: JobSnapshot;
  private first: Parameters<typeof jobInput>[0];
  private version_ = 0;
  private stopped = false;
  private turn: Promise<unknown> = Promise.resolve();
  /** An outside event being sent to the live actor: its delivery, and its write once the actor took it. */
  private sending: { event: OutsideEvent; delivery?: DeliveryRecord; written?: Promise<Written> } | null =
    null;
  /** Why the last append failed. */
  private writeError: unknown = null;
  /** Effects this runner's actor started that have not ended: a stopped one may still be under way. */
  private readonly effectsUnderWay = new Set<Promise<void>>();

  constructor(jobId: string, options: RunnerOptions) {
    this.jobId = jobId;
    this.options = options;
  }

  get snapshot(): JobSnapshot {
    return this.folded;
  }

  /** Stopped (a conflict, a failed append, a lapse, a shutdown): it writes nothing more. */
  get isStopped(): boolean {
    return this.stopped;
  }

  /** The log version this runner has folded to. */
  get version(): number {
    return this.version_;
  }

  /**
   * Resumes the job from its log and resolves with the final snapshot, with the snapshot it parks
   * in (waiting with its PR, its actor stopped), or with the last one if stopped.
   */
  run(): Promise<JobSnapshot> {
    return new Promise((resolve, reject) => {
      // The snapshot the run ends on is the one written last: resolved once every event the actor
      // took has been written (see `written`).
      const end = () => void this.written().then(() => resolve(this.folded));
      this.take(async () => {
        // A runner that took a wake-up has the log folded already: this runner writes every event since.
        const live = this.first !== undefined ? this.folded.status !== 'done' : await this.load();
        if (!live || this.stopped || isParked(this.folded)) return resolve(this.folded);
        const machine = jobMachine.provide({
          actors: effectActors(this.tracked(this.options.effects), {
            ...this.options.effectOptions,
            ready: (signal) => this.ready(signal),
          }) as never,
        });
        const actor = createActor(machine, {
          snapshot: jobMachine.getPersistedSnapshot(this.folded),
          input: jobInput(this.first),
          inspect: (ev) => {
            this.options.inspect?.(ev);
            // The root's snapshot after each event it took: its own transition, to be written.
            if (ev.type === '@xstate.snapshot' && ev.actorRef.sessionId === ev.rootId)
              this.took(ev.event, ev.snapshot as JobSnapshot);
          },
        });
        this.actor = actor;
        actor.subscribe({
          next: (snapshot) => {
            // Parked: nothing runs until an outside event, which folds the log again.
            if (snapshot.status !== 'done' && snapshot.hasTag('waiting')) actor.stop();
          },
          error: (err) => {
            this.options.onError?.(err);
            end();
          },
          complete: end,
        });
        actor.start();
      }).catch(reject);
    });
  }

  /**
   * Takes an outside event: sent to the actor when it runs here, which decides on it, and written
   * with the delivery that brought it, in the same commit; or, when it does not run (it waits for a
   * slot, or is parked), decided on the folded snapshot and written alone (the caller starts it if
   * the event gave it work). An event the machine can do nothing with is not written: `ignored`.
   */
  async receive(event: OutsideEvent, delivery?: DeliveryRecord): Promise<ReceiveResult> {
    for (;;) {
      if (this.live) return this.receiveLive(event, delivery);
      const result = await this.take(async (): Promise<ReceiveResult | null> => {
        // It started meanwhile: the actor takes the event itself.
        if (this.live) return null;
        if (!this.actor && !(await this.load())) return 'finished';
        if (this.stopped || this.folded.status === 'done') return 'finished';
        // The log holds only what the job took: news it already has (an echo of its own move, CI
        // on a commit that is no longer its head) is not written.
        if (!this.folded.can(event)) return 'ignored';
        return outcomeOf(
          await this.write(event, nextSnapshot(this.folded, event), delivery),
          this.writeError,
        );
      });
      if (result !== null) return result;
    }
  }

  /** The outside event sent to the actor under way here; written once the actor took it. */
  private async receiveLive(event: OutsideEvent, delivery?: DeliveryRecord): Promise<ReceiveResult> {
    // A delivery the log holds already changes nothing, and must not reach the actor: looked up
    // first (the append checks again, in its commit).
    if (delivery && (await this.options.store.unknownDeliveries([delivery.deliveryId])).length === 0)
      return 'duplicate';
    if (!this.live) return this.receive(event, delivery);
    const actor = this.actor!;
    if (!actor.getSnapshot().can(event)) return 'ignored';
    const sending: NonNullable<typeof this.sending> = { event, delivery };
    this.sending = sending;
    try {
      actor.send(event);
    } finally {
      this.sending = null;
    }
    // The machine failed on it: the actor ended in error, and nothing was written.
    if (!sending.written) throw actor.getSnapshot().error;
    return outcomeOf(await sending.written, this.writeError);
  }

  /** The actor runs here and takes events. */
  private get live(): boolean {
    return !this.stopped && this.actor?.getSnapshot().status === 'active';
  }

  /** Stops the actor; its in-flight effect is aborted and will run again on the next start. */
  stop() {
    this.stopped = true;
    this.actor?.stop();
  }

  /**
   * Resolves once nothing this runner started is under way: no turn (an append) and no effect. A
   * stopped runner may still be appending an outcome it took before it stopped, or running an
   * effect that has not heard the abort: the job is not handed on until both have ended.
   */
  async settled(): Promise<void> {
    for (;;) {
      const turn = this.turn;
      await Promise.all([turn, ...this.effectsUnderWay]);
      // An effect that just ended is written in a turn the actor's taking it adds: look once more.
      await new Promise((resolve) => setImmediate(resolve));
      if (turn === this.turn && this.effectsUnderWay.size === 0) return;
    }
  }

  /** The effects, each call counted under way until it ends. */
  private tracked(impls: Partial<EffectImpls>): Partial<EffectImpls> {
    const entries = Object.entries(impls) as [EffectName, EffectImpl<EffectName>][];
    return Object.fromEntries(
      entries.map(([src, impl]) => [
        src,
        (input: Parameters<EffectImpl<EffectName>>[0], ctx: Parameters<EffectImpl<EffectName>>[1]) => {
          const call = Promise.resolve().then(() => impl(input, ctx));
          const ended = call.then(
            () => undefined,
            () => undefined,
          );
          this.effectsUnderWay.add(ended);
          void ended.then(() => this.effectsUnderWay.delete(ended));
          return call;
        },
      ]),
    );
  }

  /**
   * Reads, checks and folds the log; false when the job is finished. A log that does not check out
   * is not acted on: no effect runs from it and no event is added to it (BOOTY_E_JOB_DAMAGED).
   */
  private async load(): Promise<boolean> {
    const checked = await readCheckedLog(this.options.store, this.jobId);
    if (checked.damage)
      throw new BootyError('BOOTY_E_JOB_DAMAGED', { jobId: this.jobId }, { cause: checked.damage });
    this.first = checked.events[0];
    this.folded = checked.snapshot;
    this.version_ = checked.events.length;
    return this.folded.status !== 'done';
  }

  /** Runs work after every earlier turn. */
  private take<T>(work: () => Promise<T>): Promise<T> {
    const next = this.turn.then(work);
    this.turn = next.catch(() => {});
    return next;
  }

  /**
   * Resolves once every event the actor has taken so far is written. XState reports the root's
   * snapshot (and `took` queues its write) at the end of the same synchronous step in which it
   * starts the effects the event led to and tells its observers: read a microtask later, the turns
   * hold that write.
   */
  private written(): Promise<unknown> {
    return Promise.resolve().then(() => this.turn);
  }

  /** invokeEffect's `ready`: the effect may act once what started it is written, and never if not. */
  private async ready(signal: AbortSignal): Promise<boolean> {
    await this.written();
    return !this.stopped && !signal.aborted;
  }

  /** The actor took an event and made its transition: written next, in the order the actor took them. */
  private took(event: EventObject, snapshot: JobSnapshot) {
    if (event.type === 'xstate.init' || event.type === 'xstate.stop' || this.stopped) return;
    if (!toDomainEvent(event as never, 0))
      return this.halt(new BootyError('BOOTY_E_UNLOGGED_EVENT', { jobId: this.jobId, type: event.type }));
    const sending = this.sending?.event === event ? this.sending : null;
    const written = this.take(() => this.write(event as MachineEvent, snapshot, sending?.delivery, true));
    if (sending) sending.written = written;
  }

  /**
   * Appends the log's word for a machine event and the snapshot it led to; null when the append
   * failed and the job halted. `taken`: the live actor has taken it already, so a delivery the log
   * turns out to hold (another writer recorded it meanwhile) leaves the actor ahead of its log,
   * and the job stops here as it does on another writer's append.
   */
  private async write(
    event: MachineEvent,
    next: JobSnapshot,
    delivery?: DeliveryRecord,
    taken = false,
  ): Promise<Written> {
    if (this.stopped) return null;
    // The log holds booty's words for what the machine receives: one adapter translates.
    const domain = toDomainEvent(event as never, this.folded.context.attempt)!;
    const { type, ...data } = domain;
    const meta = metaFor(domain, next, this.options.worker);
    try {
      const result = await this.options.store.append(
        this.jobId,
        this.version_,
        [{ type, version: catalogue[type].version, data, state: stateName(next), meta }],
        { job: jobUpdate(next), delivery },
      );
      if (result.duplicate) {
        if (taken && delivery)
          this.halt(
            new BootyError('BOOTY_E_DELIVERY_RACE', { jobId: this.jobId, deliveryId: delivery.deliveryId }),
          );
        return 'duplicate';
      }
    } catch (err) {
      // The log is the truth: an event that cannot be written must not be acted on. Stop here; the
      // next start resumes from the last written event.
      this.writeError = err;
      this.halt(err);
      return null;
    }
    this.version_ += 1;
    this.folded = next;
    this.options.onChange?.({
      jobId: this.jobId,
      version: this.version_,
      eventType: type,
      snapshot: next,
      tokens: meta.tokens,
    });
    return 'written';
  }

  private halt(err: unknown) {
    this.options.onError?.(err);
    this.stop();
  }
}

type Written = 'written' | 'duplicate' | null;

/** What the caller of `receive` hears of a write: not written is not received, and it hears why. */
function outcomeOf(written: Written, writeError: unknown): ReceiveResult {
  if (written === 'duplicate') return 'duplicate';
  if (written === 'written') return 'received';
  // Stopped before it was written (a shutdown, a lapse): the job runs no more here.
  if (writeError === null) return 'finished';
  throw writeError;
}

function metaFor(event: DomainEvent, next: JobSnapshot, worker: string | undefined): EventMeta {
  const meta: EventMeta = { machineVersion: MACHINE_VERSION, attempt: next.context.attempt };
  if (worker) meta.worker = worker;
  if ('deliveryId' in event && event.type !== 'JobRequested' && event.deliveryId)
    meta.deliveryId = event.deliveryId;
  const usage = event.type === 'StepSucceeded' ? (event.result as { usage?: Usage }).usage : undefined;
  if (usage) {
    meta.tokens = {
      input: usage.inputTokens,
      output: usage.outputTokens,
      cacheRead: usage.cacheReadTokens,
      cacheWrite: usage.cacheWriteTokens,
    };
    meta.usd = usage.costUsd;
  }
  return meta;
}

export function jobUpdate(snapshot: JobSnapshot): JobUpdate {
  const { context } = snapshot;
  return {
    repo: repoKey(context.repo),
    issue: context.issue.number,
    state: stateName(snapshot),
    attempts: context.attempt,
    final: snapshot.status === 'done',
    outcome: context.outcome?.reason ?? null,
    tokens: tokensSpent(context.usage),
    branch: context.branch,
    pr: context.pr?.number ?? null,
  };
}
