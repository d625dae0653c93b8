import { createActor } from 'xstate';
import { jobInput, machineEventOf } from '../machines/fold.js';
import { inertMachine } from '../machines/inert-machine.js';
import type { JobMachine } from '../machines/job.js';
import { stateName } from '../machines/job-states.js';
import type { StoredEvent } from '../store/records.js';
import { messageInspector } from './inspector-messages.js';

// A job's log played into a live actor of the machine with inert effects, watched by the Stately
// inspector's protocol. The actor starts from the JobRequested input and is sent every later
// event as recorded (effect results included: XState takes an `xstate.done.actor.*` event from
// outside like one from its own child), so the inspector sees the job move exactly as it did.

export type ReplayEvent = Pick<StoredEvent, 'type' | 'data' | 'state' | 'at'>;

export interface ReplayStep {
  seq: number;
  type: string;
  /** The state the replayed actor reached. */
  state: string;
  recorded: string | null;
}

export interface ReplayInspection {
  /** The inspector protocol messages, one JSON text each, in the order they were sent. */
  messages: string[];
  steps: ReplayStep[];
}

export async function replayInspection(
  events: ReplayEvent[],
  options: { until?: number; machine?: JobMachine } = {},
): Promise<ReplayInspection> {
  const first = events[0];
  const input = jobInput(first);
  const last = Math.min(options.until ?? events.length, events.length);
  const messages: string[] = [];
  let at = first!.at;
  const inspector = messageInspector({ onMessage: (line) => messages.push(line), stamp: () => at });
  const actor = createActor(inertMachine(options.machine), { input, inspect: inspector.inspect });
  // A log the machine rejects ends the actor in error; that is for the steps to show, not a crash.
  actor.subscribe({ error: () => {} });
  const steps: ReplayStep[] = [];
  const step = (seq: number, e: ReplayEvent) =>
    steps.push({ seq, type: e.type, state: stateName(actor.getSnapshot()), recorded: e.state ?? null });

  actor.start();
  // Settled after every event: the inspector reads an actor's snapshot when it converts the
  // event, and converting later would show a later state.
  await inspector.settle();
  step(1, first!);
  for (let i = 1; i < last; i++) {
    const event = events[i]!;
    if (actor.getSnapshot().status !== 'active') break;
    at = event.at;
    actor.send(machineEventOf(event) as never);
    await inspector.settle();
    step(i + 1, event);
  }
  inspector.close();
  actor.stop();
  return { messages, steps };
}
