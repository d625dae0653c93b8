import { readTimeline } from '../engine/timeline.js';
import type { EventStore } from '../store/event-store.js';

// A job's path through the machine, read from its log, for `booty machine --mermaid --job`.

/** The state after each logged event, oldest first; the last is where the job stands. */
export async function jobPath(store: EventStore, jobId: string): Promise<string[]> {
  return (await readTimeline(store, jobId)).entries.map((e) => e.state);
}
