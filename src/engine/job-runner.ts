import { type Actor, createActor, type InspectionEvent } from 'xstate';
import { BootyError } from '../errors.js';
import { catalogue, type DomainEvent } from '../events/catalogue.js';
import type { ConversationEvent } from '../events/conversation-events.js';
import type { EffectName, Usage } from '../events/effect-results.js';
import type { JobCancelled } from '../events/job-events.js';
import { MACHINE_VERSION } from '../events/versions.js';
import type { EffectImpl, EffectImpls } from '../machines/effect-contract.js';
import { type JobSnapshot, jobInput, nextSnapshot, stateName } from '../machines/fold.js';
import { type JobMachine, jobMachine } from '../machines/job.js';
import { tokensSpent } from '../machines/job-context.js';
import { type MachineEvent, toDomainEvent } from '../machines/machine-events.js';
import type { DeliveryRecord, EventMeta, EventStore, JobUpdate } from '../store/event-store.js';
import { type EffectOptions, type EffectOutcome, effectActors } from './effect.js';
import { readCheckedLog } from './log-check.js';

// Runs one job's actor and writes its log ahead. Nothing reaches the machine that the log does not
// already hold: an effect's outcome is appended by invokeEffect before the effect resolves, and a
// cancel is appended before it is sent. Appends take turns, and a turn ends only when the actor has
// received what was written, so the actor sees events in exactly the log's order. A crash after an
// append loses nothing: the next start folds the log and resumes with only the in-flight effect
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
  effectOptions?: Omit<EffectOptions, 'commit'>;
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

/** Waiting with its PR, with nothing to do until an outside event comes: the job holds no slot. */
export const isParked = (snapshot: JobSnapshot) => snapshot.status !== 'done' && snapshot.hasTag('waiting');

export class JobRunner {
  readonly jobId: string;
  private readonly options: RunnerOptions;
  private actor: Actor<JobMachine> | null = null;
  private folded!: JobSnapshot;
  private first: Parameters<typeof jobInput>[0];
  private version_ = 0;
  private stopped = false;
  private turn: Promise<unknown> = Promise.resolve();
  /** What was written and not yet received by the actor, with the release of its turn. */
  private inFlight: { type: string; release: () => void } | null = null;
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
      this.take(async () => {
        // A runner that took a wake-up has the log folded already: this runner writes every event since.
        const live = this.first !== undefined ? this.folded.status !== 'done' : await this.load();
        if (!live || this.stopped || isParked(this.folded)) return resolve(this.folded);
        const machine = jobMachine.provide({
          actors: effectActors(this.tracked(this.options.effects), {
            ...this.options.effectOptions,
            commit: (outcome, signal) => this.commitOutcome(outcome, signal),
          }) as never,
        });
        const actor = createActor(machine, {
          snapshot: jobMachine.getPersistedSnapshot(this.folded),
          input: jobInput(this.first),
          inspect: (ev) => {
            this.options.inspect?.(ev);
            if (ev.type === '@xstate.event' && ev.actorRef.sessionId === ev.rootId)
              this.received(ev.event as never);
          },
        });
        this.actor = actor;
        actor.subscribe({
          next: (snapshot) => {
            if (snapshot.status === 'done') resolve(this.folded);
            else if (snapshot.hasTag('waiting')) {
              // Parked: nothing runs until an outside event, which folds the log again.
              actor.stop();
              resolve(this.folded);
            }
          },
          error: (err) => {
            this.options.onError?.(err);
            resolve(this.folded);
          },
          complete: () => resolve(this.folded),
        });
        actor.start();
      }).catch(reject);
    });
  }

  /**
   * Takes an outside event: appended (with the delivery that brought it, in the same commit) and
   * then sent to the actor when it runs here, or appended to the log alone when it does not run
   * (it waits for a slot, or is parked: the caller starts it if the event gave it work).
   */
  receive(event: OutsideEvent, delivery?: DeliveryRecord): Promise<ReceiveResult> {
    return this.take(async () => {
      if (!this.actor && !(await this.load())) return 'finished';
      if (this.stopped || this.folded.status === 'done') return 'finished';
      // The log holds only what the job took: news it already has (an echo of its own move, CI
      // on a commit that is no longer its head) is not written.
      if (event.type !== 'JobCancelled' && nextSnapshot(this.folded, event as never) === this.folded)
        return 'ignored';
      const written = await this.write(event, delivery);
      // Not written is not received: the caller hears why, and the delivery can come again.
      if (written === null) throw this.writeError;
      if (written === 'duplicate') return 'duplicate';
      if (this.actor?.getSnapshot().status === 'active') this.deliver(event);
      return 'received';
    });
  }

  /** Stops the actor; its in-flight effect is aborted and will run again on the next start. */
  stop() {
    this.stopped = true;
    this.release();
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
      // An effect that just ended commits its outcome in a turn it takes next: look once more.
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

  /** invokeEffect's commit: the outcome is appended, then the effect resolves and the actor receives it. */
  private commitOutcome(outcome: EffectOutcome, signal: AbortSignal): Promise<boolean> {
    const event: MachineEvent = outcome.ok
      ? { type: `xstate.done.actor.${outcome.src}`, output: outcome.output }
      : { type: `xstate.error.actor.${outcome.src}`, error: outcome.failure };
    return new Promise((committed) => {
      void this.take(async () => {
        // An effect whose state was left (or whose actor stopped) has nobody waiting for it.
        if (this.stopped || signal.aborted || !(await this.write(event))) return committed(false);
        // Stopped while it was written: nobody will receive it (the next run folds it from the log).
        if (this.stopped) return committed(false);
        // The turn lasts until XState hands the effect's outcome to the machine.
        await new Promise<void>((release) => {
          this.inFlight = { type: event.type, release };
          committed(true);
        });
      });
    });
  }

  private deliver(event: OutsideEvent) {
    this.inFlight = { type: event.type, release: () => {} };
    this.actor?.send(event);
    this.release();
  }

  private release() {
    const inFlight = this.inFlight;
    this.inFlight = null;
    inFlight?.release();
  }

  /** Every event the actor receives must be the one just written. */
  private received(event: { type: string } & Record<string, unknown>) {
    if (event.type === 'xstate.init') return;
    if (this.inFlight?.type === event.type) return this.release();
    if (this.stopped || !toDomainEvent(event, 0)) return;
    this.halt(new BootyError('BOOTY_E_UNLOGGED_EVENT', { jobId: this.jobId, type: event.type }));
  }

  /** Appends the log's word for a machine event; null when the append failed and the job halted. */
  private async write(
    event: MachineEvent,
    delivery?: DeliveryRecord,
  ): Promise<'written' | 'duplicate' | null> {
    // The log holds booty's words for what the machine receives: one adapter translates.
    const domain = toDomainEvent(event as never, this.folded.context.attempt)!;
    const next = nextSnapshot(this.folded, event);
    const { type, ...data } = domain;
    const meta = metaFor(domain, next, this.options.worker);
    try {
      const result = await this.options.store.append(
        this.jobId,
        this.version_,
        [{ type, version: catalogue[type].version, data, state: stateName(next), meta }],
        { job: jobUpdate(next), delivery },
      );
      if (result.duplicate) return 'duplicate';
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
    repo: `${context.repo.owner}/${context.repo.name}`,
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
