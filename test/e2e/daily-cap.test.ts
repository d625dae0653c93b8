import { afterEach, expect, it } from 'vitest';
import { sampleIssue } from '../../src/demo/demo-script.js';
import { progressMarker } from '../../src/forges/markers.js';
import { until } from '../support/until.js';
import { expectReplayVerified } from './conversation-world.js';
import { e2eWorld, OWNER, REPO } from './e2e-world.js';

// BOOTY_MAX_USD_PER_DAY through `booty serve`'s wiring in the simulators: the first job of the
// day spends past a tiny cap, so the next one is held before its first step, its issue told once,
// and it starts when the clock (booty's own, moved by the test) passes 00:00 UTC.

type World = Awaited<ReturnType<typeof e2eWorld>>;
let world: World | null = null;
afterEach(async () => {
  await world?.close();
  world = null;
});

const DAY_MS = 86_400_000;
const CAP = 0.0001;

it('holds a new job once the day is spent, says so once on its issue, and starts it when the day rolls over', async () => {
  world = await e2eWorld('pass');
  const w = world;
  let offset = 0;
  const booty = await w.startInProcess(
    { BOOTY_MAX_USD_PER_DAY: String(CAP) },
    { clock: () => Date.now() + offset, holdRecheckMs: 50 },
  );
  const { supervisor } = booty.server;
  const jobOf = async (issue: number) => (await booty.store.jobsForIssue(`${OWNER}/${REPO}`, issue))[0];
  const stateOf = async (issue: number) => (await jobOf(issue))?.state;

  // Given a job that spends past the cap today.
  await w.label();
  await until('the first job is promoted', async () => (await stateOf(w.issue)) === 'promoted', 60_000);
  const dayStart = Date.now() - (Date.now() % DAY_MS);
  expect(await booty.store.spentSince(dayStart, null)).toBeGreaterThanOrEqual(CAP);
  const callsBefore = w.anthropic.messages().length;

  // When a second issue is labeled, its job is held before its first step.
  const second = (w.github.createIssue(OWNER, REPO, sampleIssue()) as { number: number }).number;
  w.github.labelIssue(OWNER, REPO, second, 'booty');
  const held = await until('the second job is held', async () => {
    const job = await jobOf(second);
    return job && supervisor.heldJobs.includes(job.jobId) ? job : null;
  });
  const notices = () =>
    w.github.comments(OWNER, REPO, second).filter((c) => c.body.includes(progressMarker(held.jobId)));
  await until('the issue hears it waits', () => notices().length === 1);
  const notice = notices()[0]!.body;
  expect(notice).toContain('reaches the daily cap of $0.0001 (`BOOTY_MAX_USD_PER_DAY`)');
  expect(notice).toMatch(/spent \$0\.\d{4} on the model today/);
  const tomorrow = new Date(dayStart + DAY_MS).toISOString().slice(0, 10);
  expect(notice).toContain(`it starts at ${tomorrow} 00:00 UTC`);

  // Looked at again many times within the day: still held, not failed, and told only once.
  const noticeId = notices()[0]!.id;
  const edits = () =>
    w.github.requests().filter((r) => r.method === 'PATCH' && r.path.endsWith(`/comments/${noticeId}`))
      .length;
  const editsWhenTold = edits();
  const recheckedUntil = Date.now() + 500;
  await until('rechecks within the day', () => Date.now() > recheckedUntil);
  expect(supervisor.heldJobs).toContain(held.jobId);
  expect((await jobOf(second))!.version).toBe(1);
  expect((await jobOf(second))!.final).toBe(false);
  expect(w.anthropic.messages().length).toBe(callsBefore);
  expect(notices()).toHaveLength(1);
  expect(edits()).toBe(editsWhenTold);

  // Then the day rolls over on booty's clock: the job starts, and its comment becomes its progress.
  offset = dayStart + DAY_MS + 1_000 - Date.now();
  await until('the second job is promoted', async () => (await stateOf(second)) === 'promoted', 60_000);
  expect(supervisor.heldJobs).toEqual([]);
  expect(w.anthropic.messages().length).toBeGreaterThan(callsBefore);
  await w.github.settled();
  await booty.runtime!.idle();
  expect(notices()).toHaveLength(1);
  expect(notices()[0]!.body).not.toContain('daily cap');
  await expectReplayVerified(w.dir, held.jobId, 'promoted');
});
