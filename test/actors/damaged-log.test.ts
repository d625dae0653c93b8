import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { BootyError } from '../../src/errors.js';
import { createProgressReporter } from '../../src/github/progress-reporter.js';
import type { JobRecord } from '../../src/store/event-store.js';
import { sampleDir, simFixture } from '../github/sim-fixture.js';
import { harness } from '../support/job-harness.js';

// Given an unfinished job whose log was edited after it was written, when booty starts, then the
// job is not resumed in silence: it is marked damaged, the error is reported, `booty jobs` shows
// it, and the issue gets one comment saying so.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** A job stopped in the middle (its effects wait), its log then edited behind booty's back. */
async function editedUnfinishedJob() {
  const h = harness({ delayMs: 60_000 });
  const r = await h.request();
  if (r.outcome !== 'created') throw new Error(r.outcome);
  await h.supervisor.shutdown();
  await h.store.close();
  const raw = new Database(h.db);
  raw
    .prepare(
      "UPDATE events SET data = replace(data, 'Add an add', 'Delete the') WHERE stream_id = ? AND version = 1",
    )
    .run(r.jobId);
  raw.close();
  return { db: h.db, jobId: r.jobId };
}

describe('a damaged log at boot', () => {
  it('is marked damaged, reported and shown, and not resumed', async () => {
    const { db, jobId } = await editedUnfinishedJob();
    const damaged: [JobRecord, BootyError][] = [];
    const errors: unknown[] = [];
    const h = harness(
      {},
      {
        db,
        observers: [{ damaged: async (job, problem) => void damaged.push([job, problem]) }],
        onError: (e) => errors.push(e),
      },
    );
    expect(await h.supervisor.boot()).toEqual([]);
    expect(h.effects.log).toEqual([]);
    expect(await h.store.getJob(jobId)).toMatchObject({ state: 'damaged', final: true, outcome: 'damaged' });
    expect(damaged.map(([job, problem]) => [job.jobId, problem.code])).toEqual([
      [jobId, 'BOOTY_E_LOG_TAMPERED'],
    ]);
    expect(damaged[0]![1].message).toContain('event 1 is not what was written');
    expect(errors).toHaveLength(1);
    await h.store.close();

    const out: string[] = [];
    expect(
      await main(['jobs', '--db', db], { out: (t) => out.push(t), err: (t) => out.push(t), env: {} }),
    ).toBe(0);
    expect(out.join('\n')).toMatch(new RegExp(`${jobId}\\s+acme/widgets#1\\s+damaged`));
  });

  it('says so in one comment on the issue', async () => {
    const f = await simFixture();
    closers.push(() => f.sim.close());
    await f.sim.createRepo('acme', 'widgets', { fromDir: sampleDir() });
    f.sim.createIssue('acme', 'widgets', { title: 'Add an add() function' });
    const { db, jobId } = await editedUnfinishedJob();
    const h = harness({}, { db });
    const reporter = createProgressReporter({ clients: f.clients, store: h.store });
    const job = (await h.store.getJob(jobId))!;
    const problem = {
      code: 'BOOTY_E_LOG_TAMPERED',
      message: `the log of job ${jobId} was changed after it was written`,
    } as BootyError;
    await reporter.damaged!(job, problem);
    await reporter.damaged!(job, problem);
    const comments = f.sim.comments('acme', 'widgets', 1);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toContain('its log is damaged');
    expect(comments[0]!.body).toContain(`<!-- booty:progress job=${jobId} -->`);
    await h.store.close();
  });
});
