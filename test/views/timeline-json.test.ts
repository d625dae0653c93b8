import { describe, expect, it } from 'vitest';
import { jobPath, readTimeline } from '../../src/engine/timeline.js';
import { SqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import { timelineToJson } from '../../src/views/timeline-json.js';
import { cli } from '../support/cli.js';
import { recordedJob } from './recorded-job.js';

const timelineJson = async (store: Parameters<typeof readTimeline>[0], jobId: string, until?: number) =>
  timelineToJson(await readTimeline(store, jobId, until), until !== undefined);

describe('the timeline as JSON (GET /jobs/:id/timeline)', () => {
  it('is what `booty replay --json` prints, whole or cut with until', async () => {
    const job = await recordedJob();
    const store = new SqliteEventStore(job.db);
    try {
      const whole = await timelineJson(store, job.jobId);
      expect(whole).toEqual(JSON.parse((await cli(['replay', job.jobId, '--json', '--db', job.db])).out));
      expect(whole).toMatchObject({ jobId: job.jobId, verified: true, finalState: 'promoted' });
      expect(whole.events).toHaveLength(12);
      expect(whole.snapshot).toBeUndefined();
      const cut = await timelineJson(store, job.jobId, 7);
      expect(cut).toEqual(
        JSON.parse((await cli(['replay', job.jobId, '--json', '--until', '7', '--db', job.db])).out),
      );
      expect(cut.snapshot).toMatchObject({ state: 'refining', context: { attempt: 2 } });
      await expect(timelineJson(store, 'nope')).rejects.toThrow(
        expect.objectContaining({ code: 'BOOTY_E_STREAM_NOT_FOUND' }),
      );
    } finally {
      await store.close();
    }
  });

  it("gives a job's path through the machine", async () => {
    const job = await recordedJob({ tests: [true] });
    const store = new SqliteEventStore(job.db);
    try {
      const path = await jobPath(store, job.jobId);
      expect(path).toEqual(job.events.map((e) => e.state));
      expect(path[path.length - 1]).toBe('promoted');
    } finally {
      await store.close();
    }
  });
});
