import { jobPath } from '../engine/timeline.js';
import { BootyError } from '../errors.js';
import { machineGraph, machineJson, machineMermaid, mermaidWithPath } from '../machines/diagram.js';
import { waitingStates } from '../machines/job-states.js';
import type { Command } from './command.js';
import { table } from './format.js';
import { dbHelp, dbOption, openExistingStore } from './store-option.js';

export const machineCommand: Command = {
  name: 'machine',
  usage: [
    'Usage: booty machine [--json | --mermaid [--job ID [--db PATH]]]',
    '',
    'Prints every state of the job machine and every transition out of it, generated from the machine.',
    '',
    "  --json         the machine definition as JSON, for Stately's tools (createMachine(<json>))",
    '  --mermaid      a Mermaid stateDiagram-v2 (paste into GitHub markdown or mermaid.live)',
    "  --job ID       with --mermaid: highlight that job's path and the state it stands in",
    dbHelp,
  ].join('\n'),
  options: { ...dbOption, json: { type: 'boolean' }, mermaid: { type: 'boolean' }, job: { type: 'string' } },
  positionals: [],
  async run({ values }, io) {
    const usage = (reason: string) => new BootyError('BOOTY_E_USAGE', { command: 'machine', reason });
    if (values.json && values.mermaid) throw usage('--json and --mermaid are two outputs: pick one');
    if (values.job !== undefined && !values.mermaid) throw usage('--job needs --mermaid');
    if (values.json) {
      io.out(JSON.stringify(machineJson(), null, 2));
      return 0;
    }
    if (values.mermaid) {
      if (values.job === undefined) {
        io.out(machineMermaid());
        return 0;
      }
      const store = await openExistingStore(values, io.env);
      try {
        io.out(mermaidWithPath(await jobPath(store, values.job as string)));
      } finally {
        await store.close();
      }
      return 0;
    }
    io.out(overview());
    return 0;
  },
};

function overview(): string {
  const g = machineGraph();
  const waiting: readonly string[] = waitingStates;
  const rows = g.states.flatMap((s) => {
    const own = g.transitions.filter((t) => t.from === s.name && !t.fromRoot);
    const what =
      s.type === 'final' || s.type === 'choice'
        ? `(${s.type})`
        : waiting.includes(s.name)
          ? '(waits)'
          : s.invokes.join(', ');
    const head = [s.name, what];
    if (own.length === 0) return [[...head, '', '']];
    return own.map((t, i) => [...(i === 0 ? head : ['', '']), t.label, t.to]);
  });
  // A root transition without a target keeps each state where it is: it reads as one entry, not one per state.
  const rootEdges = g.transitions.filter((t) => t.fromRoot);
  const root = [
    ...new Set(
      rootEdges.map((t) => {
        const targets = new Set(rootEdges.filter((o) => o.label === t.label).map((o) => o.to));
        const stays = rootEdges.filter((o) => o.label === t.label).every((o) => o.to === o.from);
        return stays || targets.size > 1 ? `${t.label} (stays)` : `${t.label} -> ${t.to}`;
      }),
    ),
  ];
  return [
    `machine ${g.id}: ${g.states.length} states, starts in ${g.initial}`,
    '',
    table(['STATE', 'INVOKES', 'ON', 'GOES TO'], rows),
    '',
    `in every state that is not final: ${root.join('; ')}`,
  ].join('\n');
}
