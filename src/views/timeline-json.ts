import type { Timeline } from '../engine/timeline.js';

// The replay timeline as JSON for tools: what `booty replay --json` prints and what
// `GET /jobs/:id/timeline` answers, from the timeline engine/timeline.ts reads.

export interface TimelineJson {
  jobId: string;
  verified: boolean;
  finalState: string;
  events: {
    seq: number;
    type: string;
    /** The step, for StepSucceeded and StepFailed. */
    step?: string;
    state: string;
    /** ISO 8601. */
    at: string;
    attempt: number;
    tokens?: { input: number; output: number; cacheRead: number; cacheWrite: number };
  }[];
  /** Only when cut with `until`: where the job stood after that event. */
  snapshot?: { state: string; context: unknown };
}

export function timelineToJson(t: Timeline, withSnapshot: boolean): TimelineJson {
  return {
    jobId: t.jobId,
    verified: t.verified,
    finalState: t.finalState,
    events: t.entries.map((e) => ({
      seq: e.seq,
      type: e.type,
      ...(e.step ? { step: e.step } : {}),
      state: e.state,
      at: new Date(e.at).toISOString(),
      attempt: e.attempt,
      ...(e.tokens ? { tokens: e.tokens } : {}),
    })),
    ...(withSnapshot ? { snapshot: { state: t.finalState, context: t.snapshot.context } } : {}),
  };
}
