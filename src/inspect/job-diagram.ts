import { readTimeline } from '../actors/timeline.js';
import { mermaidWithPath } from '../machines/diagram.js';
import type { EventStore } from '../store/event-store.js';

// A job's path through the machine, read from its log, for the diagram the progress comment embeds.

/** The state after each logged event, oldest first; the last is where the job stands. */
export function jobPath(store: EventStore, jobId: string): string[] {
  return readTimeline(store, jobId).entries.map((e) => e.state);
}

/** The machine's Mermaid diagram with this job's visited states and current state highlighted. */
export function jobDiagram(store: EventStore, jobId: string): string {
  return mermaidWithPath(jobPath(store, jobId));
}
