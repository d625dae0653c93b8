import { setup } from 'xstate';
import type { JobRequested } from '../events/job-events.js';
import { jobMachine } from './job.js';
import type { JobState } from './job-context.js';
import { actions, guards } from './job-logic.js';
import type { MachineEvent } from './machine-events.js';

// The job machine's decisions without its effects. XState turns an invoke's onDone and onError
// into transitions on `xstate.done.actor.<id>` and `xstate.error.actor.<id>`; this machine states
// exactly those transitions, with the same guards and actions, but creates no child actor when it
// enters a state. Folding a long log through it is several times faster; the fold then takes the
// last step through the real machine, so the snapshot it resumes from carries its in-flight effect.

type StateConfig = {
  invoke?: { id: string; onDone?: unknown; onError?: unknown };
  on?: Record<string, unknown>;
  [key: string]: unknown;
};

function withoutInvokes(states: Record<string, StateConfig>): Record<string, StateConfig> {
  return Object.fromEntries(
    Object.entries(states).map(([name, { invoke, ...state }]) => {
      if (!invoke) return [name, state];
      const on = { ...state.on };
      if (invoke.onDone) on[`xstate.done.actor.${invoke.id}`] = invoke.onDone;
      if (invoke.onError) on[`xstate.error.actor.${invoke.id}`] = invoke.onError;
      return [name, { ...state, on }];
    }),
  );
}

const { states, ...root } = jobMachine.config as unknown as { states: Record<string, StateConfig> };

export const jobDecider = setup({
  types: {
    context: {} as JobState,
    input: {} as JobRequested,
    events: {} as MachineEvent,
  },
  guards,
  actions,
}).createMachine({ ...(root as object), states: withoutInvokes(states) } as never);
