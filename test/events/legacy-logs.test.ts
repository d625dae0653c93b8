import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../src/events/catalogue.js';
import { MACHINE_VERSION } from '../../src/events/versions.js';
import { foldJob } from '../../src/machines/fold.js';
import { jobView } from '../../src/machines/job-context.js';
import { readJobLog } from '../../src/store/job-log.js';
import { SqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import { renderPrBody } from '../../src/views/pr-body.js';
import { renderProgress } from '../../src/views/progress-render.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/job-harness.js';

// The three demo logs as M1 wrote them (test runs that named only their failures, no run number)
// still replay, verified, and still render, through the upcasters.

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/legacy-logs');

/** A copy of a fixture's one job: its log as read today, and what `booty replay --verify --json` says. */
async function replayFixture(file: string) {
  const db = path.join(tempDir('booty-legacy-'), 'booty.db');
  fs.copyFileSync(path.join(fixtures, file), db);
  const store = new SqliteEventStore(db);
  const [job] = await store.listJobs();
  const events = await readJobLog(store, job!.jobId);
  await store.close();
  const { code, out, err } = await cli(['replay', job!.jobId, '--verify', '--json', '--db', db]);
  expect(code, err).toBe(0);
  return { jobId: job!.jobId, events, replay: JSON.parse(out) };
}

describe('logs written by M1', () => {
  it.each([
    ['pass', 'promoted', 1],
    ['refine', 'promoted', 2],
    // Today a draft left with failing tests waits with its PR for a human's word.
    ['exhausted', 'prOpened', 3],
  ])('the %s demo replays verified to %s after %i attempt(s)', async (scenario, finalState, attempts) => {
    const { jobId, events, replay } = await replayFixture(`m1-demo-${scenario}.db`);
    expect(replay).toMatchObject({ verified: true, finalState });

    const snapshot = foldJob(events);
    expect(snapshot.context.attempt).toBe(attempts);
    // Old runs read as records: their named failures are cases, their verdict what they decided.
    const last = jobView(snapshot.context).lastTest!;
    expect(last).toMatchObject({ source: 'text', verdict: scenario === 'exhausted' ? 'fail' : 'pass' });
    expect(last.totals.failed).toBe(last.failingTests.length);
    expect(snapshot.context.branch).toBe('booty/issue-1-add-parseduration-turn-1h-30m-into-milli');
    // Written before booty served a second forge: the job is GitHub's.
    expect(snapshot.context.repo).toEqual({ forge: 'github', owner: 'demo', name: 'tiny-durations' });
    expect(renderProgress(snapshot)).toContain(`booty job \`${jobId}\``);
    expect(renderPrBody(jobView(snapshot.context))).toContain('## Test evidence');
  });
});

// Logs of machine 4, written by the release before the loop's controls, with the demo and its
// sample repository (maxAttempts raised to 5 for the first; BOOTY_MAX_TOKENS_PER_JOB=6000 for the
// second). Machine 5 would stall the first at attempt 3 and park the second at its budget; their
// logs hold no stallAfter and no budget step, so they fold as they were written.
describe('logs written by machine 4', () => {
  it.each([
    ['exhausted-5-attempts', 'prOpened', 5, 'tests-failing'],
    ['budget', 'prOpened', 2, 'budget'],
  ])(
    'the %s log replays verified to %s after %i attempts, ending %s',
    async (name, finalState, attempts, reason) => {
      const { jobId, events, replay } = await replayFixture(`m4-${name}.db`);
      expect(replay).toMatchObject({ verified: true, finalState });
      const snapshot = foldJob(events);
      expect(snapshot.context.attempt).toBe(attempts);
      expect(snapshot.context.outcome?.reason).toBe(reason);
      expect(renderProgress(snapshot)).toContain(`booty job \`${jobId}\``);
    },
  );
});

// A log of machine 5, before new quality findings counted as improvement (scripted effects: each
// attempt's tests pass and `npm run lint` blocks it with 3, 2, 1, 1 and 1 new findings; stallAfter
// 2, five attempts). Machine 5 stalled it at attempt 3; today attempts 2 and 3 improve, but its
// request (JobRequested v4) is lifted with qualityProgress: false, so it folds as it ran.
describe('logs written by machine 5', () => {
  it('a loop held back by lint replays verified to its stall at attempt 3', async () => {
    const { events, replay } = await replayFixture('m5-quality-stall.db');
    expect(replay).toMatchObject({ verified: true, finalState: 'prOpened' });
    const snapshot = foldJob(events);
    expect(snapshot.context.attempt).toBe(3);
    expect(snapshot.context.outcome?.reason).toBe('stalled');
    expect(jobView(snapshot.context).lastTest?.quality?.[0]?.newFindings).toHaveLength(1);
  });
});

// Logs of machine 7, written by the release before booty's rules as a collaborator, with the demo
// and its sample repository. The first: red CI on the ready PR turned it back to draft at once, the
// re-run passed and it was promoted again (machine 8 re-runs before it demotes). The second: a
// writer's `@booty stop` ended a round in `prOpened`, then `@booty retry` ran it again with the
// round's request (machine 8 answers stop, and leaves a ready PR's state alone). Their requests
// (JobRequested v5) are lifted with collaborator: false, so they fold as they ran.
describe('logs written by machine 7', () => {
  it('a flaky check on a ready PR replays verified: demoted at once, re-run green, promoted again', async () => {
    const { events, replay } = await replayFixture('m7-flaky-demoted.db');
    expect(replay).toMatchObject({ verified: true, finalState: 'promoted' });
    const snapshot = foldJob(events);
    expect(snapshot.context.request.collaborator).toBe(false);
    expect(events.filter((e) => e.state === 'demoting')).not.toHaveLength(0);
    expect(snapshot.context.conversation).toMatchObject({ rounds: [], ci: { state: 'passed' } });
    expect(snapshot.context.pr?.draft).toBe(false);
  });

  it('a stopped round and a retry replay verified: the stop waited in prOpened, the retry pushed', async () => {
    const { events, replay } = await replayFixture('m7-stop-retry.db');
    expect(replay).toMatchObject({ verified: true, finalState: 'promoted' });
    const snapshot = foldJob(events);
    expect(events.find((e) => e.type === 'CommandReceived')?.state).toBe('prOpened');
    expect(snapshot.context.conversation.rounds.map((r) => r.result)).toEqual(['stopped', 'pushed']);
  });
});

// A log from before the hash chain goes on after an upgrade: the rows appended since carry hashes
// that cover the old ones, and only the old rows, first in the log, may lack one.
describe('a log from before the hash chain, continued', () => {
  async function continued() {
    const db = path.join(tempDir('booty-legacy-'), 'booty.db');
    fs.copyFileSync(path.join(fixtures, 'm1-demo-pass.db'), db);
    const store = new SqliteEventStore(db);
    const [job] = await store.listJobs();
    const jobId = job!.jobId;
    const legacy = await store.streamVersion(jobId);
    await store.append(jobId, legacy, [
      {
        type: 'JobCancelled',
        version: catalogue.JobCancelled.version,
        data: { reason: 'operator', sender: 'octocat', deliveryId: null, at: 1_800_000_000_000 },
        state: 'cancelled',
        meta: { machineVersion: MACHINE_VERSION },
      },
    ]);
    await store.close();
    return { db, jobId, legacy };
  }
  const edit = (db: string, sql: string, ...params: unknown[]) => {
    const raw = new Database(db);
    raw.prepare(sql).run(...params);
    raw.close();
  };

  it('verifies, its old rows without hashes and the new one chained over them', async () => {
    const { db, jobId, legacy } = await continued();
    const rows = new Database(db, { readonly: true })
      .prepare('SELECT hash IS NULL AS unhashed FROM events WHERE stream_id = ? ORDER BY version')
      .all(jobId) as { unhashed: number }[];
    expect(rows.map((r) => r.unhashed)).toEqual([...Array(legacy).fill(1), 0]);
    const { code, out, err } = await cli(['replay', jobId, '--verify', '--json', '--db', db]);
    expect(code, err).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ verified: true, finalState: 'cancelled' });
  });

  it('given an old row edited, then the first hashed row after it is not what was written', async () => {
    const { db, jobId, legacy } = await continued();
    edit(
      db,
      'UPDATE events SET meta = replace(meta, \'"attempt":0\', \'"attempt":9\') WHERE stream_id = ? AND version = 2',
      jobId,
    );
    const { code, err } = await cli(['replay', jobId, '--verify', '--db', db]);
    expect(code).toBe(1);
    expect(err).toContain(`event ${legacy + 1} is not what was written`);
  });

  it('given the new row without its hash, then --verify names it', async () => {
    const { db, jobId, legacy } = await continued();
    edit(db, 'UPDATE events SET hash = NULL WHERE stream_id = ? AND version = ?', jobId, legacy + 1);
    const { code, err } = await cli(['replay', jobId, '--verify', '--db', db]);
    expect(code).toBe(1);
    expect(err).toContain(
      `event ${legacy + 1} has no hash, though machine ${MACHINE_VERSION} wrote it, and every booty since machine 2 chains its rows`,
    );
    expect(err).toContain('BOOTY_E_LOG_TAMPERED');
  });
});
