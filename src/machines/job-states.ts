// A job's states by name, apart from the machine: what views, the queue and start-up need to know
// of a job's state without loading xstate and the machine (which load with the first job run).

/**
 * Every state a job can stand in, in the order a reader meets them: with the transient states, a
 * test keeps it equal to the machine's.
 */
export const JOB_STATES = [
  'preparing',
  'baselining',
  'analyzing',
  'postingPlan',
  'awaitingApproval',
  'generating',
  'applying',
  'testing',
  'refining',
  'budgetExhausted',
  'openingPr',
  'escalating',
  'promoting',
  'prOpened',
  'promoted',
  'checkingCi',
  'demoting',
  'rerunningCi',
  'syncing',
  'applyingSuggestions',
  'answering',
  'answeringQuestion',
  'merged',
  'closed',
  'answered',
  'failed',
  'cancelled',
] as const;
/** Choices the machine passes through within one event: never a job's state, never logged. */
export const transientStates = ['concluding'] as const;
/** A state's name: every renderer maps each one, so a new state is a type error until it is shown. */
export type JobStateName = (typeof JOB_STATES)[number];
export const jobStates: readonly JobStateName[] = JOB_STATES;
export const finalStates = ['merged', 'closed', 'answered', 'failed', 'cancelled'] as const;
/**
 * Where a job waits (with its PR, for its plan's approval, or at its budget): parked, holding no
 * slot and no process, until an event wakes it.
 */
export const waitingStates = ['prOpened', 'promoted', 'awaitingApproval', 'budgetExhausted'] as const;

/** The job's state: the machine is flat, so its value is one of its states' names. */
export function stateName(snapshot: { value: unknown }): JobStateName {
  return snapshot.value as JobStateName;
}

/** Waiting with its PR, with nothing to do until an outside event comes: the job holds no slot. */
// A job's snapshot (machines/fold.ts) as far as these read it: this file does not import the machine.
export const isParked = (snapshot: { status: string; hasTag(tag: 'waiting'): boolean }) =>
  snapshot.status !== 'done' && snapshot.hasTag('waiting');
