import { type AnyActorScope, createActor, type SnapshotFrom } from 'xstate';
import { BootyError } from '../errors.js';
import { JobRequested } from '../events/job-events.js';
import { jobMachine } from './job.js';

// Folding a job's log back into its snapshot. Nothing runs: initialTransition and transition are
// pure. The same fold resumes a job after a crash, verifies a log, and drives `booty replay`.

export type JobSnapshot = SnapshotFrom<typeof jobMachine>;

/** The shape of a logged event the fold needs: the first is always JobRequested. */
export interface LoggedEvent {
  type: string;
  data: Record<string, unknown>;
  state?: string | null;
}

export interface FoldStep {
  seq: number;
  type: string;
  state: string;
  recorded: string | null;
  snapshot: JobSnapshot;
}

export function stateName(snapshot: Pick<JobSnapshot, 'value'>): string {
  const flatten = (value: unknown): string =>
    typeof value === 'string'
      ? value
      : Object.entries(value as Record<string, unknown>)
          .map(([k, v]) => `${k}.${flatten(v)}`)
          .join(',');
  return flatten(snapshot.value);
}

/** The machine input a job's log starts with. */
export function jobInput(first: LoggedEvent | undefined): JobRequested {
  if (first?.type !== 'JobRequested') {
    throw new BootyError('BOOTY_E_EVENT_INVALID', {
      type: first?.type ?? 'nothing',
      reason: 'a job log must start with JobRequested',
    });
  }
  const parsed = JobRequested.safeParse({ ...first.data, type: 'JobRequested' });
  if (!parsed.success) {
    throw new BootyError('BOOTY_E_EVENT_INVALID', { type: 'JobRequested', reason: parsed.error.message });
  }
  return parsed.data;
}

export const toMachineEvent = (e: LoggedEvent) => ({ ...e.data, type: e.type }) as any;

let inert: AnyActorScope | null = null;
/**
 * An actor scope that records nothing and runs nothing. XState's own pure `transition()` builds a
 * new actor for every call; folding a log reuses this one, which makes replay several times faster.
 * Invoked children are created in the snapshot but never started.
 */
function inertScope(): AnyActorScope {
  if (!inert) {
    const self = createActor(jobMachine, { input: undefined as never });
    inert = {
      self,
      id: '',
      sessionId: '',
      system: self.system,
      logger: () => {},
      defer: () => {},
      emit: () => {},
      stopChild: () => {},
      actionExecutor: () => {},
    };
  }
  return inert;
}

/** The pure initial transition: the snapshot a job starts in. */
export function initialSnapshot(input: JobRequested): JobSnapshot {
  return jobMachine.getInitialSnapshot(inertScope(), input);
}

/** The pure transition: the snapshot one logged event leads to. No effect runs. */
export function nextSnapshot(snapshot: JobSnapshot, event: { type: string }): JobSnapshot {
  return jobMachine.transition(snapshot, event as never, inertScope());
}

/** Every snapshot along the log, the first being the state after JobRequested. */
export function foldSteps(events: LoggedEvent[], until = events.length): FoldStep[] {
  const initial = initialSnapshot(jobInput(events[0]));
  const steps: FoldStep[] = [
    {
      seq: 1,
      type: 'JobRequested',
      state: stateName(initial),
      recorded: events[0]?.state ?? null,
      snapshot: initial,
    },
  ];
  let snapshot = initial;
  for (let i = 1; i < Math.min(until, events.length); i++) {
    const event = events[i]!;
    snapshot = nextSnapshot(snapshot, toMachineEvent(event));
    steps.push({
      seq: i + 1,
      type: event.type,
      state: stateName(snapshot),
      recorded: event.state ?? null,
      snapshot,
    });
  }
  return steps;
}

export function foldJob(events: LoggedEvent[]): JobSnapshot {
  const steps = foldSteps(events);
  return steps[steps.length - 1]!.snapshot;
}

/** The first step whose recorded state differs from the one the machine reaches, if any. */
export function firstDivergence(steps: FoldStep[]): FoldStep | null {
  return steps.find((s) => s.recorded !== null && s.recorded !== s.state) ?? null;
}
