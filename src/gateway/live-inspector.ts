import type { InspectionEvent } from 'xstate';

// `booty serve --inspect`: every running job's actor, live in the Stately inspector. Pass
// `inspect` as the Supervisor's (or startServer's) `inspect` option and print `url`.

export interface LiveInspector {
  inspect: (event: InspectionEvent) => void;
  url: string;
  /** The served job list, for a viewer who cannot reach stately.ai. */
  fallbackTo(url: string): void;
  close(): Promise<void>;
}

export interface LiveInspectorOptions {
  port?: number;
  host?: string;
  /** Messages kept for a viewer who opens the page later (default 5000: the last few dozen jobs). */
  history?: number;
  /** A message that could not be serialised; it is dropped and the job goes on. */
  onDrop?: (err: unknown) => void;
}

export async function startLiveInspector(options: LiveInspectorOptions = {}): Promise<LiveInspector> {
  // Loaded here, not at import: `serve` without --inspect never needs the inspector or ws.
  const { messageInspector } = await import('../engine/inspector-messages.js');
  const { startInspectorServer } = await import('./inspector-server.js');
  const server = await startInspectorServer({
    port: options.port,
    host: options.host,
    history: options.history ?? 5000,
  });
  const inspector = messageInspector({ onMessage: (line) => server.publish(line), onDrop: options.onDrop });
  return {
    inspect: inspector.inspect,
    url: server.url,
    fallbackTo: server.fallbackTo,
    async close() {
      inspector.close();
      await server.close();
    },
  };
}
