import { createInspector, type StatelyInspectionEvent } from '@statelyai/inspect';
import type { InspectionEvent } from 'xstate';

// XState inspection events turned into the Stately inspector's protocol messages
// (`@xstate.actor`, `@xstate.event`, `@xstate.snapshot`), each as the JSON text its websocket
// adapter would send. One producer for the live inspector, the replay and `--export`.

export interface MessageInspector {
  /** The inspection observer for `createActor({ inspect })` or the Supervisor's `inspect` option. */
  inspect: (event: InspectionEvent) => void;
  /** Resolves once every event reported so far has become a message. */
  settle(): Promise<void>;
  /** Sends nothing more, e.g. the stop events of a replayed actor nobody asked to see stop. */
  close(): void;
}

export interface MessageInspectorOptions {
  onMessage: (line: string, message: StatelyInspectionEvent) => void;
  /** The `createdAt` to stamp, in epoch ms; a replay passes the recorded time of its event. */
  stamp?: () => number;
  /** A message that cannot be serialised is dropped, never thrown into the actor's timers. */
  onDrop?: (err: unknown) => void;
}

// The inspector's default depth (10) cuts deep context, such as an attempt's failing tests, to
// "[Object]"; a job's context is plain JSON, so allow it whole.
const DEPTH = 64;

export function messageInspector(options: MessageInspectorOptions): MessageInspector {
  let open = true;
  const inspector = createInspector(
    {
      send(message) {
        if (!open) return;
        try {
          const stamped = options.stamp ? { ...message, createdAt: String(options.stamp()) } : message;
          options.onMessage(JSON.stringify(stamped, functionsByName), stamped);
        } catch (err) {
          options.onDrop?.(err);
        }
      },
    },
    { serializationDepthLimit: DEPTH },
  );
  return {
    inspect: (event) => inspector.inspect.next?.(event),
    // The inspector converts each event on a 0 ms timer; timers fire in order, so one more
    // timer fires after all of them.
    settle: () => new Promise((resolve) => setTimeout(resolve, 0)),
    close: () => {
      open = false;
    },
  };
}

/** As the Stately inspector shows functions: by name. */
function functionsByName(_key: string, value: unknown) {
  return typeof value === 'function' ? { type: value.name } : value;
}
