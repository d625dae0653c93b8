import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { jobMachine } from './job.js';

// The job machine as a picture and as data, generated from its definition so the diagram can never
// drift from the code: every state node and every transition candidate becomes a line.

export interface DiagramState {
  /** The state's name as `stateName()` prints it. */
  name: string;
  /** A choice is left at once by its eventless transitions: no job stands in it. */
  type: 'atomic' | 'choice' | 'final';
  /** The `src` of each effect the state invokes. */
  invokes: string[];
}

export interface DiagramTransition {
  from: string;
  to: string;
  event: string;
  /** The guard's name, `else` for the unguarded fallback after guarded candidates, or null. */
  guard: string | null;
  /** Re-enters its own state (a retry): the invoked effect starts again. */
  reenter: boolean;
  /** Defined on the machine's root, so it applies in every active state. */
  fromRoot: boolean;
  /** Has no target: the job stays in the state it is in. */
  targetless: boolean;
  label: string;
}

export interface MachineGraph {
  id: string;
  initial: string;
  states: DiagramState[];
  transitions: DiagramTransition[];
}

/** Nothing to run and no event to wait for, and one eventless transition is always taken. */
const isChoice = (node: AnyStateNode) =>
  node.type === 'atomic' &&
  node.invoke.length === 0 &&
  node.transitions.size === 0 &&
  node.always?.some((t) => !t.guard) === true;

/** Every state and transition of a flat machine, in definition order. */
export function machineGraph(machine: AnyStateMachine = jobMachine): MachineGraph {
  const root = machine.root;
  const nodes = Object.values(root.states) as AnyStateNode[];
  for (const node of nodes) {
    // booty's machine is flat by design; a nested one needs composite blocks in the diagram.
    if (node.type !== 'atomic' && node.type !== 'final')
      throw new Error(`diagram: state ${node.key} is ${node.type}; only flat machines are drawn`);
  }
  const states = nodes.map((node) => ({
    name: node.key,
    type: isChoice(node) ? ('choice' as const) : (node.type as 'atomic' | 'final'),
    invokes: node.invoke.map((i) => String(i.src)),
  }));
  // A choice takes no event: the root's transitions hold in the states a job stands in.
  const active = nodes.filter((n) => n.type !== 'final' && !isChoice(n));
  const transitions = [
    ...nodes.flatMap((node) => edgesOf(node, [node.key], false)),
    ...edgesOf(
      root,
      active.map((n) => n.key),
      true,
    ),
  ];
  const initial = root.initial?.target[0]?.key;
  if (!initial) throw new Error('diagram: the machine has no initial state');
  return { id: root.id, initial, states, transitions };
}

/**
 * The graph a job's path is drawn on: the states a job stands in, with each edge into a choice
 * carried on to where the choice leads (a path never stops in a choice: it is never logged).
 */
export function restingGraph(machine: AnyStateMachine = jobMachine): MachineGraph {
  const g = machineGraph(machine);
  const choices = new Set(g.states.filter((s) => s.type === 'choice').map((s) => s.name));
  const onward = (t: DiagramTransition): DiagramTransition[] =>
    choices.has(t.to)
      ? g.transitions
          .filter((c) => c.from === t.to)
          .flatMap((c) => onward({ ...t, to: c.to, label: `${t.label}, ${c.label}` }))
      : [t];
  return {
    ...g,
    states: g.states.filter((s) => !choices.has(s.name)),
    transitions: g.transitions.filter((t) => !choices.has(t.from)).flatMap(onward),
  };
}

function edgesOf(node: AnyStateNode, sources: string[], fromRoot: boolean): DiagramTransition[] {
  const candidates = [...node.transitions.entries()];
  if (node.always?.length) candidates.push(['always', node.always]);
  return candidates.flatMap(([event, list]) =>
    list.flatMap((t, i) => {
      const guard = guardName(t.guard) ?? (i > 0 && list.slice(0, i).some((p) => p.guard) ? 'else' : null);
      const label = `${eventLabel(event)}${guard ? ` [${guard}]` : ''}`;
      return sources.flatMap((from) =>
        (t.target?.length ? t.target.map((n: AnyStateNode) => n.key) : [from]).map((to: string) => ({
          from,
          to,
          event,
          guard,
          reenter: t.reenter,
          fromRoot,
          targetless: !t.target?.length,
          label,
        })),
      );
    }),
  );
}

function guardName(guard: unknown): string | null {
  if (!guard) return null;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') return guard.name || 'guard';
  return String((guard as { type?: unknown }).type ?? 'guard');
}

/** `xstate.done.actor.runTests` reads as `runTests done`. */
export function eventLabel(event: string): string {
  const m = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event);
  return m ? `${m[2]} ${m[1]}` : event;
}

// Mermaid's state grammar ends a label at `:`, `;` or a newline, and a `#` may start a comment.
const safeLabel = (text: string) => text.replace(/[:;#\n\r]+/g, ' ').trim();

/** Where the diagram draws the root's transitions from: once, not from every active state. */
export const ANY_STATE = 'anyState';

/** A `stateDiagram-v2` naming every state and every transition, for GitHub and mermaid.live. */
export function machineMermaid(machine: AnyStateMachine = jobMachine): string {
  const g = machineGraph(machine);
  const own = g.transitions.filter((t) => !t.fromRoot);
  // The root's transitions hold in every active state: drawn from each, they would bury the rest.
  const fromRoot = [
    ...new Set(
      g.transitions
        .filter((t) => t.fromRoot)
        .map((t) => `  ${ANY_STATE} --> ${t.targetless ? ANY_STATE : t.to} : ${safeLabel(t.label)}`),
    ),
  ];
  return [
    'stateDiagram-v2',
    `  [*] --> ${g.initial}`,
    ...g.states.map((s) =>
      s.invokes.length ? `  ${s.name} : ${safeLabel(`invoke ${s.invokes.join(', ')}`)}` : `  ${s.name}`,
    ),
    ...(fromRoot.length ? [`  ${ANY_STATE} : any state but a final one`] : []),
    ...own.map((t) => `  ${t.from} --> ${t.to} : ${safeLabel(t.label)}`),
    ...fromRoot,
    ...g.states.filter((s) => s.type === 'final').map((s) => `  ${s.name} --> [*]`),
  ].join('\n');
}

/**
 * The diagram with a job's path through it highlighted: `path` is the state after each logged
 * event, oldest first (e.g. a timeline's `entries.map((e) => e.state)`); its last entry is where
 * the job stands. Names the machine does not have are left out, so the text stays valid Mermaid.
 */
export function mermaidWithPath(path: string[], machine: AnyStateMachine = jobMachine): string {
  const known = new Set(machineGraph(machine).states.map((s) => s.name));
  const steps = path.filter((s) => known.has(s));
  const current = steps[steps.length - 1];
  const visited = [...new Set(steps)].filter((s) => s !== current);
  const lines = [
    machineMermaid(machine),
    '  classDef visited fill:#dbeafe,stroke:#2563eb,color:#1e3a8a',
    '  classDef current fill:#2563eb,stroke:#1e3a8a,color:#ffffff,font-weight:bold',
  ];
  if (visited.length) lines.push(`  class ${visited.join(',')} visited`);
  if (current) lines.push(`  class ${current} current`);
  return lines.join('\n');
}

/**
 * The machine's definition as JSON that Stately's tools import (`createMachine(<this>)`): the
 * config the inspector is sent, less its functions (context and effect inputs are code).
 */
export function machineJson(machine: AnyStateMachine = jobMachine): Record<string, unknown> {
  return JSON.parse(JSON.stringify(machine.config));
}
