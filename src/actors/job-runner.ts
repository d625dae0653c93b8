import { type Actor, createActor, type InspectionEvent } from 'xstate';
import { catalogue, type DomainEvent } from '../events/catalogue.js';
import type { Usage } from '../events/effect-results.js';
import type { JobCancelled } from '../events/job-events.js';
import { MACHINE_VERSION } from '../events/versions.js';
import { foldJob, type JobSnapshot, jobInput, nextSnapshot, stateName } from '../machines/fold.js';
import { type JobMachine, jobMachine } from '../machines/job.js';
import { tokensSpent } from '../machines/job-context.js';
import { toDomainEvent } from '../machines/machine-events.js';
import type { EventMeta, EventStore, JobUpdate } from '../store/event-store.js';
import { readJobLog } from '../store/job-log.js';

// Runs one job's actor and writes its log ahead. XState's inspection hook reports every event the
// root actor receives before the actor processes it; the runner appends it there, synchronously,
// with the state the pure machine reaches by it. A crash after the append loses nothing: the next
// start folds the log and resumes with only the in-flight effect re-run.

export interface JobChange {
  jobId: string;
  version: number;
  eventType: string;
  snapshot: JobSnapshot;
}

export interface RunnerOptions {
  store: EventStore;
  /** The job machine with its effects provided. */
  machine: JobMachine;
  onChange?: (change: JobChange) => void;
  /** Extra inspection observers, e.g. the Stately inspector. */
  inspect?: (event: InspectionEvent) => void;
  onError?: (err: unknown) => void;
}

export class JobRunner {
  readonly jobId: string;
  private readonly options: RunnerOptions;
  private actor: Actor<JobMachine> | null = null;
  private folded!: JobSnapshot;
  private version = 0;
  private stopped = false;

  constructor(jobId: string, options: RunnerOptions) {
    this.jobId = jobId;
    this.options = options;
  }

  get snapshot(): JobSnapshot {
    return this.folded;
  }

  /** Resumes the job from its log and resolves with the final snapshot, or the last one if stopped. */
  run(): Promise<JobSnapshot> {
    const events = readJobLog(this.options.store, this.jobId);
    this.folded = foldJob(events);
    this.version = events.length;
    if (this.folded.status === 'done') return Promise.resolve(this.folded);

    return new Promise((resolve) => {
      const actor = createActor(this.options.machine, {
        snapshot: jobMachine.getPersistedSnapshot(this.folded),
        input: jobInput(events[0]),
        inspect: (ev) => {
          this.options.inspect?.(ev);
          if (ev.type === '@xstate.event' && ev.actorRef.sessionId === ev.rootId)
            this.record(ev.event as never);
        },
      });
      this.actor = actor;
      actor.subscribe({
        next: (snapshot) => {
          if (snapshot.status === 'done') resolve(this.folded);
        },
        error: (err) => {
          this.options.onError?.(err);
          resolve(this.folded);
        },
        complete: () => resolve(this.folded),
      });
      actor.start();
    });
  }

  send(event: JobCancelled) {
    if (!this.actor || this.stopped) return false;
    this.actor.send(event);
    return true;
  }

  /** Stops the actor; its in-flight effect is aborted and will run again on the next start. */
  stop() {
    this.stopped = true;
    this.actor?.stop();
  }

  private record(event: { type: string } & Record<string, unknown>) {
    if (this.stopped || event.type === 'xstate.init') return;
    // The log holds booty's words for what the machine received: one adapter translates.
    const domain = toDomainEvent(event, this.folded.context.attempt);
    if (!domain) return;
    const next = nextSnapshot(this.folded, event);
    const { type, ...data } = domain;
    const state = stateName(next);
    try {
      this.options.store.append(
        this.jobId,
        this.version,
        [{ type, version: catalogue[type].version, data, state, meta: metaFor(domain, next) }],
        jobUpdate(next),
      );
    } catch (err) {
      // The log is the truth: an event that cannot be written must not be acted on by anyone who
      // could observe it. Stop here; the next start resumes from the last written event.
      this.stopped = true;
      this.options.onError?.(err);
      queueMicrotask(() => this.actor?.stop());
      return;
    }
    this.version += 1;
    this.folded = next;
    this.options.onChange?.({ jobId: this.jobId, version: this.version, eventType: type, snapshot: next });
  }
}

function metaFor(event: DomainEvent, next: JobSnapshot): EventMeta {
  const meta: EventMeta = { machineVersion: MACHINE_VERSION, attempt: next.context.attempt };
  const usage = event.type === 'StepSucceeded' ? (event.result as { usage?: Usage }).usage : undefined;
  if (usage) {
    meta.tokens = {
      input: usage.inputTokens,
      output: usage.outputTokens,
      cacheRead: usage.cacheReadTokens,
      cacheWrite: usage.cacheWriteTokens,
    };
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
  };
}
