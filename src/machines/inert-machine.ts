import { fromPromise } from 'xstate';
import { type JobMachine, jobMachine } from './job.js';

// The job machine with every effect replaced by one that never settles and touches nothing. A
// replayed actor then moves only by the recorded events it is sent: no effect can run, and none
// can deliver a result the log does not have.

const inert = fromPromise<never, unknown>(() => new Promise<never>(() => {}));

export function inertMachine(machine: JobMachine = jobMachine): JobMachine {
  const names = Object.keys(machine.implementations.actors);
  return machine.provide({ actors: Object.fromEntries(names.map((name) => [name, inert])) as any });
}
