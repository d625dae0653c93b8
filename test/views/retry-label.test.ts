import { describe, expect, it } from 'vitest';
import { readTimeline } from '../../src/engine/timeline.js';
import { SqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import { renderJobView } from '../../src/views/job-view.js';
import { renderProgress } from '../../src/views/progress-render.js';
import type { Script } from '../support/scripted-effects.js';
import { recordedJob } from './recorded-job.js';

// #31: a step that failed for good never promises a retry on its last event: not in the timeline
// (`booty replay`, GET /jobs/:id/timeline), the job view drawn from it, or the progress comment.

async function recorded(script: Script) {
  const job = await recordedJob(script);
  const store = new SqliteEventStore(job.db);
  return {
    timeline: (until?: number) => readTimeline(store, job.jobId, until),
    close: () => store.close(),
  };
}

const failures = (entries: { type: string; label: string }[]) =>
  entries.filter((e) => e.type === 'StepFailed').map((e) => e.label);

const RETRIED = 'test failed (will retry): effect runTests failed for now: simulated 503';
const FOR_GOOD = 'test failed: effect runTests failed for now: simulated 503';

describe('a failed step in the timeline', () => {
  it('reads "(will retry)" on each retried failure, and not on the last, once the retries are spent', async () => {
    const job = await recorded({ tests: [false, true], outcomes: { runTests: Array(6).fill('transient') } });
    try {
      const timeline = await job.timeline();
      expect(timeline.snapshot.context.outcome?.reason).toBe('error');
      expect(failures(timeline.entries)).toEqual([...Array(5).fill(RETRIED), FOR_GOOD]);
      const html = renderJobView(timeline);
      expect(html).toContain(`<td>${FOR_GOOD}</td>`);
      expect(html.match(/failed \(will retry\)/g)).toHaveLength(5);
      // The progress comment after the fifth retried failure says it retries; after the last, not.
      const seqs = timeline.entries.filter((e) => e.type === 'StepFailed').map((e) => e.seq);
      const fifth = renderProgress((await job.timeline(seqs[4])).snapshot);
      expect(fifth).toContain('**Retrying:** ');
      expect(fifth).toContain('(retry 5 of 5)');
      const last = renderProgress((await job.timeline(seqs[5])).snapshot);
      expect(last).not.toContain('Retrying');
      expect(last).not.toContain('will retry');
    } finally {
      await job.close();
    }
  });

  it('never reads "(will retry)" for a failure that was not retried', async () => {
    const job = await recorded({ tests: [false, true], outcomes: { runTests: ['permanent'] } });
    try {
      const timeline = await job.timeline();
      expect(failures(timeline.entries)).toEqual(['test failed: effect runTests failed: simulated 401']);
      expect(renderJobView(timeline)).not.toContain('will retry');
    } finally {
      await job.close();
    }
  });

  it('reads "(will retry)" on a failure the next try got past', async () => {
    const job = await recorded({ tests: [false, true], outcomes: { runTests: ['transient'] } });
    try {
      const timeline = await job.timeline();
      expect(timeline.finalState).toBe('promoted');
      expect(failures(timeline.entries)).toEqual([RETRIED]);
    } finally {
      await job.close();
    }
  });
});
