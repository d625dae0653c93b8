import { describe, expect, it } from 'vitest';
import { harness } from '../support/job-harness.js';

describe('smoke', () => {
  it('runs a job to promoted', async () => {
    const h = harness();
    const r = h.request();
    if (r.outcome !== 'created') throw new Error(r.outcome);
    const snap = await h.supervisor.whenFinished(r.jobId);
    console.log(
      h.store
        .readStream(r.jobId)
        .map((e) => `${e.version} ${e.type} -> ${e.state}`)
        .join('\n'),
    );
    expect(snap.value).toBe('promoted');
  });
});
