import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createProgressReporter, type ProgressReporter } from '../../src/effects/progress-reporter.js';
import type { JobObserver } from '../../src/engine/supervisor.js';
import { type BootyError, isBootyError } from '../../src/errors.js';
import { githubProgress } from '../../src/forges/github/github-forge.js';
import type { JobRecord } from '../../src/store/records.js';
import { sampleDir, simFixture } from '../forges/github/sim-fixture.js';
import { editLog, eventCount, interruptedJob, logEdits, parkedJob } from '../support/edited-logs.js';
import { harness } from '../support/job-harness.js';

// Given an unfinished job whose log was edited after it was written, when booty starts, then the
// job is not resumed in silence: it is marked damaged, the error is reported, `booty jobs` shows
// it, and the issue gets one comment saying so. Boot checks each log as `booty replay --verify`
// does, parked jobs included; a log edited under a running booty is found at the next event for
// its job, which is refused and not written.

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
    const reporter = createProgressReporter({ comments: githubProgress(f.clients), store: h.store });
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

/** A supervisor booting on the database, with what it tells of damaged jobs and what it reports. */
function booting(db: string, observers: JobObserver[] = []) {
  const damaged: [JobRecord, BootyError][] = [];
  const errors: unknown[] = [];
  const h = harness(
    {},
    {
      db,
      observers: [{ damaged: async (job, problem) => void damaged.push([job, problem]) }, ...observers],
      onError: (e) => errors.push(e),
    },
  );
  return { ...h, damaged, errors };
}

/** GitHub's CI result on the parked job's PR head, as the gateway hands it to the supervisor. */
const ciOnHead = (id: string) =>
  [
    { id, event: 'check_suite', action: 'completed' },
    {
      kind: 'wake',
      repo: { forge: 'github' as const, owner: 'acme', name: 'widgets' },
      target: { pr: 7 },
      event: { type: 'CiCompleted', headSha: 'b'.repeat(40), source: 'check_suite', conclusion: 'success' },
    },
  ] as const;

describe('boot checks every unfinished log as replay --verify does', () => {
  it('given an interrupted job whose log is as written, then boot resumes it', async () => {
    const { db, jobId } = await interruptedJob();
    const h = booting(db);
    expect(await h.supervisor.boot()).toEqual([jobId]);
    expect((await h.supervisor.whenFinished(jobId)).value).toBe('promoted');
    expect(h.effects.log[0]).toBe(`${jobId}:generate:1`);
    expect(h.damaged).toEqual([]);
    await h.store.close();
  });

  it.each(logEdits.map((e) => [e.name, e] as const))(
    'given %s, then boot marks the job damaged, tells it once, and runs nothing of it',
    async (_, edit) => {
      const { db, jobId } = await edit.job();
      expect(editLog(db, jobId, edit.sql)).toBe(1);
      const events = eventCount(db, jobId);

      const h = booting(db);
      expect(await h.supervisor.boot()).toEqual([]);
      await h.supervisor.onIdle();
      expect(h.effects.log).toEqual([]);
      expect(await h.store.getJob(jobId)).toMatchObject({
        state: 'damaged',
        final: true,
        outcome: 'damaged',
      });
      expect(h.damaged.map(([job, problem]) => [job.jobId, problem.code])).toEqual([
        [jobId, 'BOOTY_E_LOG_TAMPERED'],
      ]);
      expect(h.damaged[0]![1].message).toContain(`${edit.reason}; booty will not run it`);
      expect(h.errors).toEqual([h.damaged[0]![1]]);

      // And a delivery for it afterwards is refused, and writes nothing.
      const cancel = h.intake.submit(
        { id: 'd-unlabeled', event: 'issues', action: 'unlabeled' },
        {
          kind: 'cancel',
          repo: { forge: 'github' as const, owner: 'acme', name: 'widgets' },
          issue: 1,
          reason: 'unlabeled',
          sender: 'octocat',
        },
      );
      await expect(cancel).rejects.toMatchObject({ code: 'BOOTY_E_JOB_DAMAGED', status: 409 });
      expect(await h.store.unknownDeliveries(['d-unlabeled'])).toEqual(['d-unlabeled']);
      await h.store.close();
      expect(eventCount(db, jobId)).toBe(events);
    },
  );

  it('given a damaged job told on its issue, then the next boot tells it no more; one whose telling failed is told at the next boot', async () => {
    const f = await simFixture();
    closers.push(() => f.sim.close());
    await f.sim.createRepo('acme', 'widgets', { fromDir: sampleDir() });
    f.sim.createIssue('acme', 'widgets', { title: 'Add an add() function' });
    const { db, jobId } = await parkedJob();
    editLog(db, jobId, logEdits[2]!.sql);

    // GitHub is down at the first boot: the damage is marked, and not told.
    const first = booting(db, [
      {
        damaged: async () => {
          throw new Error('GitHub is down');
        },
      },
    ]);
    await first.supervisor.boot();
    expect(first.errors.map((e) => (e as Error).message)).toEqual([
      expect.stringContaining('event 7 is not what was written'),
      'GitHub is down',
    ]);
    await first.store.close();
    expect(f.sim.comments('acme', 'widgets', 1)).toEqual([]);

    for (let boot = 2; boot <= 3; boot++) {
      let reporter!: ProgressReporter;
      const h = booting(db, [{ damaged: (job, problem) => reporter.damaged!(job, problem) }]);
      reporter = createProgressReporter({ comments: githubProgress(f.clients), store: h.store });
      await h.supervisor.boot();
      expect(h.damaged.map(([job]) => job.jobId)).toEqual(boot === 2 ? [jobId] : []);
      expect(h.errors).toEqual([]);
      const comments = f.sim.comments('acme', 'widgets', 1);
      expect(comments).toHaveLength(1);
      expect(comments[0]!.body).toContain('its log is damaged');
      expect(comments[0]!.body).toContain('event 7 is not what was written');
      await h.store.close();
    }
  });
});

describe('a log edited under a running booty', () => {
  it('given a parked job whose payload is edited after boot, then CI on its PR is refused as damaged, nothing is appended, and the job is marked and told once', async () => {
    const { db, jobId } = await parkedJob();
    const h = booting(db);
    expect(await h.supervisor.boot()).toEqual([]);
    expect(await h.store.getJob(jobId)).toMatchObject({ state: 'promoted', final: false });
    editLog(db, jobId, logEdits[2]!.sql);
    const events = eventCount(db, jobId);

    for (const id of ['d-ci-1', 'd-ci-2']) {
      const err = await h.intake.submit(...ciOnHead(id)).catch((e: unknown) => e);
      expect(isBootyError(err, 'BOOTY_E_JOB_DAMAGED')).toBe(true);
      expect((err as BootyError).message).toBe(
        `job ${jobId} is damaged: its log does not check out, so booty takes no event for it and wrote nothing; \`booty replay ${jobId} --verify\` names the row, and labeling the issue again starts a fresh job`,
      );
    }
    await h.supervisor.onIdle();
    expect(eventCount(db, jobId)).toBe(events);
    expect(await h.store.unknownDeliveries(['d-ci-1', 'd-ci-2'])).toEqual(['d-ci-1', 'd-ci-2']);
    expect(h.effects.log).toEqual([]);
    expect(await h.store.getJob(jobId)).toMatchObject({ state: 'damaged', final: true });
    expect(h.damaged.map(([job, problem]) => [job.jobId, problem.code, problem.params.seq])).toEqual([
      [jobId, 'BOOTY_E_LOG_TAMPERED', 7],
    ]);
    await h.store.close();
  });

  it('given the same job untouched, then CI on its PR wakes it and is written', async () => {
    const { db, jobId } = await parkedJob();
    const h = booting(db);
    await h.supervisor.boot();
    expect(await h.intake.submit(...ciOnHead('d-ci'))).toEqual({ outcome: 'woke', jobId });
    await h.supervisor.onIdle();
    expect(eventCount(db, jobId)).toBe(14);
    await h.store.close();
  });
});
