import { fromPromise } from 'xstate';
import type { EffectName, EffectOutput } from '../events/effect-results.js';
import { type JobMachine, jobMachine } from './job.js';
import type { EffectInput } from './job-context.js';

// The job machine with every effect replaced by one that never settles and touches nothing. A
// replayed actor then moves only by the recorded events it is sent: no effect can run, and none
// can deliver a result the log does not have.

const inert = fromPromise<never, EffectInput>(() => new Promise<never>(() => {}));
/** Each effect's logic as the machine types it: `inert` settles with none of their outputs. */
type Effects = { [K in EffectName]: ReturnType<typeof fromPromise<EffectOutput<K>, EffectInput>> };

export function inertMachine(machine: JobMachine = jobMachine): JobMachine {
  const names = Object.keys(machine.implementations.actors);
  return machine.provide({ actors: Object.fromEntries(names.map((name) => [name, inert])) as Effects });
}
