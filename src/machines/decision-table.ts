import type { JobRequested } from '../events/job-events.js';
import { initialContext, type JobState } from './job-context.js';
import { jobDecider } from './job-decider.js';
import { actions, guards } from './job-logic.js';
import type { Args } from './logic-kit.js';
import type { MachineEvent } from './machine-events.js';

// The decider's transitions read once into a table, for the fold boot runs over every unfinished
// job. The rules are the machine's own (its state nodes, guards and context updates), taken in the
// order XState takes them: the state's candidates for the event, then the root's; the first whose
// guard passes; its updates in order; then the state's eventless transitions until none passes.
// What XState builds on the way (a snapshot, its state nodes, an action list per event) is what a
// fold of a long log spent most of its time on. `booty replay` still folds through XState itself,
// and a test folds recorded logs both ways and compares every step (decision-table.unit.test.ts).

/** Where a job stands, without the snapshot around it. */
export interface Decision {
  value: string;
  context: JobState;
}

type Guard = (args: Args) => boolean;
type Assignment = (args: Args) => Partial<JobState>;
interface Rule {
  guard: Guard | null;
  target: string | null;
  assignments: Assignment[];
}
interface StateRules {
  final: boolean;
  on: Map<string, Rule[]>;
  always: Rule[];
}

/** The parts of XState's resolved machine the table reads. */
interface TransitionNode {
  guard?: unknown;
  target?: readonly { key: string }[];
  actions: readonly unknown[];
}
interface StateNodeLike {
  key: string;
  type: string;
  entry: readonly unknown[];
  exit: readonly unknown[];
  transitions: Map<string, TransitionNode[]>;
  always?: TransitionNode[];
  invoke: readonly unknown[];
  initial?: { target: readonly { key: string }[] };
  states: Record<string, StateNodeLike>;
}

/** The table models a flat machine of guarded assigns; anything else is refused at load. */
function unsupported(what: string): never {
  throw new Error(`decision-table: ${what}; fold through XState or teach the table`);
}

function ruleOf(t: TransitionNode, where: string): Rule {
  if (t.guard !== undefined && (typeof t.guard !== 'string' || !Object.hasOwn(guards, t.guard)))
    unsupported(`a guard in ${where} is not one of the machine's named guards`);
  if (t.target && t.target.length !== 1) unsupported(`a transition in ${where} has several targets`);
  const assignments = t.actions.map((name) => {
    const action =
      typeof name === 'string' && Object.hasOwn(actions, name)
        ? (actions[name as keyof typeof actions] as unknown as { type?: string; assignment?: unknown })
        : undefined;
    if (action?.type !== 'xstate.assign' || typeof action.assignment !== 'function')
      unsupported(`an action in ${where} is not a named assign`);
    return action.assignment as Assignment;
  });
  return {
    guard: t.guard === undefined ? null : guards[t.guard as keyof typeof guards],
    target: t.target?.[0]?.key ?? null,
    assignments,
  };
}

function eventRules(node: StateNodeLike): Map<string, Rule[]> {
  if (node.entry.length > 0 || node.exit.length > 0 || node.invoke.length > 0)
    unsupported(`state ${node.key || '(root)'} has entry, exit or invoke`);
  const on = new Map<string, Rule[]>();
  for (const [type, transitions] of node.transitions) {
    if (type.includes('*')) unsupported(`state ${node.key} takes a wildcard event`);
    on.set(
      type,
      transitions.map((t) => ruleOf(t, node.key)),
    );
  }
  return on;
}

function rulesOf(node: StateNodeLike): StateRules {
  const always = (node.always ?? []).map((t) => ruleOf(t, node.key));
  if (always.some((r) => r.target === null))
    unsupported(`an eventless transition of ${node.key} has no target`);
  return { final: node.type === 'final', on: eventRules(node), always };
}

const root = jobDecider.root as unknown as StateNodeLike;
if (root.always?.length) unsupported('the root has eventless transitions');
const rootRules = eventRules(root);
const states = new Map<string, StateRules>();
for (const node of Object.values(root.states)) {
  if (node.type !== 'atomic' && node.type !== 'final') unsupported(`state ${node.key} is ${node.type}`);
  states.set(node.key, rulesOf(node));
}
const initialState = root.initial?.target[0]?.key ?? unsupported('the machine has no initial state');

/** The first rule whose guard passes, as XState's `next` picks it. */
function pick(rules: Rule[] | undefined, args: Args): Rule | null {
  if (!rules) return null;
  for (const rule of rules) if (!rule.guard || rule.guard(args)) return rule;
  return null;
}

function take(rule: Rule, context: JobState, event: MachineEvent): JobState {
  // As XState's assign: a new context, every field kept, the update's fields over them.
  for (const assignment of rule.assignments)
    context = Object.assign({}, context, assignment({ context, event }));
  return context;
}

/** Eventless transitions after an event, until none passes or the job is done. */
function settle(value: string, context: JobState, event: MachineEvent): Decision {
  for (;;) {
    const state = states.get(value)!;
    if (state.final) return { value, context };
    const rule = pick(state.always, { context, event });
    if (!rule) return { value, context };
    context = take(rule, context, event);
    value = rule.target!;
  }
}

/** Where a job starts: the machine's initial state and context, settled. */
export function initialDecision(input: JobRequested): Decision {
  return settle(initialState, initialContext(input), {
    type: 'xstate.init',
    input,
  } as unknown as MachineEvent);
}

/**
 * Where one event leads, or null where XState would do what the table does not model: an
 * effect's failure that no transition takes puts XState's snapshot in error.
 */
export function decideNext(at: Decision, event: MachineEvent): Decision | null {
  const state = states.get(at.value);
  if (!state) return null;
  if (state.final) return at;
  const args = { context: at.context, event };
  const rule = pick(state.on.get(event.type), args) ?? pick(rootRules.get(event.type), args);
  if (!rule) return event.type.startsWith('xstate.error.actor') ? null : settle(at.value, at.context, event);
  return settle(rule.target ?? at.value, take(rule, at.context, event), event);
}
