import { type AnyActorScope, createActor, type SnapshotFrom } from 'xstate';
import { BootyError } from '../errors.js';
import type { DomainEvent } from '../events/catalogue.js';
import { JobRequested } from '../events/job-events.js';
import { type Decision, decideNext, initialDecision } from './decision-table.js';
import { jobMachine } from './job.js';
import { jobDecider } from './job-decider.js';
import { finalStates, stateName } from './job-states.js';
import { type MachineEvent, toMachineEvent } from './machine-events.js';

// Folding a job's log back into its snapshot. Nothing runs: initialTransition and transition are
// pure. The same fold resumes a job after a crash, verifies a log, and drives `booty replay`.

export type JobSnapshot = SnapshotFrom<typeof jobMachine>;

/** The shape of a logged event the fold needs: the first is always JobRequested. */
export interface LoggedEvent {
  type: string;
  data: Record<string, unknown>;
  state?: string | null;
  /** The row already parsed against the catalogue (a LogEntry's), which the fold then reuses. */
  event?: DomainEvent;
}

export interface FoldStep {
  seq: number;
  type: string;
  state: string;
  recorded: string | null;
  snapshot: JobSnapshot;
}

/** The machine input a job's log starts with. */
export function jobInput(first: LoggedEvent | undefined): JobRequested {
  if (first?.event?.type === 'JobRequested') return first.event;
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

/** The machine's event for a logged row (after JobRequested, which is the machine's input). */
export const machineEventOf = (e: LoggedEvent) =>
  toMachineEvent(e.event ?? ({ ...e.data, type: e.type } as DomainEvent));

/**
 * An actor scope that records nothing and runs nothing, one per machine. XState's own pure
 * `transition()` builds a new actor for every call; folding reuses this one instead.
 */
const inertScopes = new Map<unknown, AnyActorScope>();
function inertScope(machine: typeof jobMachine | typeof jobDecider): AnyActorScope {
  let scope = inertScopes.get(machine);
  if (!scope) {
    const self = createActor(machine as typeof jobMachine, { input: undefined as never });
    scope = {
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
    inertScopes.set(machine, scope);
  }
  return scope;
}

/** The pure initial transition: the snapshot a job starts in, with its first effect ready to start. */
export function initialSnapshot(input: JobRequested): JobSnapshot {
  return jobMachine.getInitialSnapshot(inertScope(jobMachine), input);
}

/** A job in a final state is done: like its finished actor, it takes no more events. */
const finished = (snapshot: JobSnapshot) => (finalStates as readonly string[]).includes(stateName(snapshot));

/** The pure transition: the snapshot one logged event leads to, ready to resume. No effect runs. */
export function nextSnapshot(snapshot: JobSnapshot, event: { type: string }): JobSnapshot {
  if (finished(snapshot)) return snapshot;
  const real =
    snapshot.machine === jobMachine
      ? snapshot
      : jobMachine.resolveState({ value: snapshot.value, context: snapshot.context });
  return jobMachine.transition(real, event as never, inertScope(jobMachine));
}

/** The same decision without creating the effect's actor: for the steps a fold passes through. */
function decide(snapshot: JobSnapshot, event: { type: string }): JobSnapshot {
  if (finished(snapshot)) return snapshot;
  return jobDecider.transition(
    snapshot as never,
    event as never,
    inertScope(jobDecider),
  ) as unknown as JobSnapshot;
}

/** How a fold takes the steps before its last state: XState's decider, or its table. */
interface Decide<T extends Decision> {
  start(input: JobRequested): T;
  /** Null where only XState can say (decision-table.ts). */
  next(at: T, event: { type: string }): T | null;
}

const throughXState: Decide<JobSnapshot> = {
  start: (input) => jobDecider.getInitialSnapshot(inertScope(jobDecider), input) as unknown as JobSnapshot,
  next: decide,
};

const throughTable: Decide<Decision> = {
  start: initialDecision,
  next: (at, event) => decideNext(at, event as MachineEvent),
};

/** A state that starts no effect. */
const runsNothing = (at: { value: unknown }) => jobMachine.states[stateName(at)]?.invoke.length === 0;

/** A fold the table cannot take to its end: it is taken again through XState. */
class TableCannot extends Error {}

/**
 * Folds the first `until` events into a snapshot, calling `onStep` with each one along the way.
 * Only the snapshot the fold ends on needs its effect's actor (to resume it), so every earlier
 * step goes through the decider, which makes the same decision without creating one. The actor is
 * made when its state is entered, and events noted on the way (CI, a review queued) keep it: so the
 * steps since the job entered the state it ends in go through the real machine.
 */
function fold<T extends Decision | JobSnapshot>(
  decider: Decide<T>,
  events: LoggedEvent[],
  until: number,
  onStep?: (i: number, at: T | JobSnapshot) => void,
): JobSnapshot {
  const last = Math.min(until, events.length) - 1;
  const input = jobInput(events[0]);
  let at = decider.start(input);
  // Where the real machine takes over: where the job stood before it entered its last state (none:
  // it never left its first), and that event.
  let entered: { before: T | null; at: number } = { before: null, at: 1 };
  for (let i = 1; i <= last; i++) {
    onStep?.(i - 1, at);
    const next = decider.next(at, machineEventOf(events[i]!));
    if (next === null) throw new TableCannot();
    if (next.value !== at.value) entered = { before: at, at: i };
    at = next;
  }
  let snapshot: JobSnapshot;
  // (XState's decider in error, which the table never is, goes the long way as the real machine.)
  if (runsNothing(at) && !('status' in at && at.status === 'error')) {
    // A job that waits, or is done, has no effect's actor to resume: where it stands is all.
    snapshot = jobMachine.resolveState({ value: stateName(at), context: at.context });
  } else {
    const before = entered.before;
    snapshot =
      before === null
        ? initialSnapshot(input)
        : jobMachine.resolveState({ value: stateName(before), context: before.context });
    for (let i = entered.at; i <= last; i++) snapshot = nextSnapshot(snapshot, machineEventOf(events[i]!));
  }
  onStep?.(last, snapshot);
  return snapshot;
}

/** The fold boot and a runner take: through the table, or XState where the table cannot say. */
function foldFast(
  events: LoggedEvent[],
  onStep?: (i: number, at: Decision | JobSnapshot) => void,
): JobSnapshot {
  try {
    return fold(throughTable, events, events.length, onStep);
  } catch (err) {
    if (!(err instanceof TableCannot)) throw err;
    return fold(throughXState, events, events.length, onStep);
  }
}

/** Every snapshot along the log, the first being the state after JobRequested. */
export function foldSteps(events: LoggedEvent[], until = events.length): FoldStep[] {
  const steps: FoldStep[] = [];
  // Replay folds through XState itself at every step: each step's snapshot is shown.
  fold(throughXState, events, until, (i, snapshot) =>
    steps.push({
      seq: i + 1,
      type: events[i]!.type,
      state: stateName(snapshot),
      recorded: events[i]!.state ?? null,
      snapshot,
    }),
  );
  return steps;
}

/** The snapshot a job's whole log folds to: where it stands, ready to resume. */
export const foldJob = (events: LoggedEvent[]): JobSnapshot => foldFast(events);

/**
 * The snapshot the whole log folds to, and the first event whose recorded state the machine does
 * not reach: `booty replay --verify`'s check of the states, at the cost of one fold.
 */
export function foldChecked(events: LoggedEvent[]): {
  snapshot: JobSnapshot;
  divergence: { seq: number; recorded: string; state: string } | null;
} {
  let divergence: { seq: number; recorded: string; state: string } | null = null;
  const snapshot = foldFast(events, (i, step) => {
    const recorded = events[i]!.state ?? null;
    if (divergence === null && recorded !== null && recorded !== stateName(step))
      divergence = { seq: i + 1, recorded, state: stateName(step) };
  });
  return { snapshot, divergence };
}

/** The first step whose recorded state differs from the one the machine reaches, if any. */
export function firstDivergence(steps: FoldStep[]): FoldStep | null {
  return steps.find((s) => s.recorded !== null && s.recorded !== s.state) ?? null;
}
