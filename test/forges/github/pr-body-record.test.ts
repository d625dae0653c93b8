import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createProgressReporter } from '../../../src/effects/progress-reporter.js';
import { githubProgress } from '../../../src/forges/github/github-forge.js';
import { foldJob, type JobSnapshot } from '../../../src/machines/fold.js';
import { jobView } from '../../../src/machines/job-context.js';
import type { StoredEvent } from '../../../src/store/records.js';
import { renderPrBody } from '../../../src/views/pr-body.js';
import { openPrFixture } from './pr-fixture.js';

// The PR body is a projection of the job's log, as the progress comment is: rewritten after a
// round, read before the first write of a run, so a restart that finds it current changes nothing.
// The dependency section comes from openPr's logged result; a log from before it recorded them (the
// recorded review round's) keeps the section the PR opened with.

const rows: StoredEvent[] = JSON.parse(
  fs.readFileSync(new URL('../../views/golden/logs/review-round.json', import.meta.url), 'utf8'),
).rows;

const DEPENDENCIES =
  '## Dependency changes\n\n`package.json`:\n```diff\n+    "ms": "^2.1.3"\n```\n\nbooty installs the dependencies a change brings without running their install scripts.';

describe('the PR body, kept current', () => {
  it('is rewritten after a round, keeps the dependency section an older log did not record, and a restart that finds it current writes nothing', async () => {
    const f = await openPrFixture();
    const gh = await f.clients.forJob(f.job);
    const at = onFixture(f, rows);
    const beforeRound = rows.findIndex((r) => r.type === 'FeedbackReceived');
    const opened = at(beforeRound);
    const body = () => bodyOf(f);
    // The PR as openPr left it: its body names the dependencies the change brought.
    await gh.rest.pulls.update({
      owner: 'acme',
      repo: 'widgets',
      pull_number: f.job.pr!.number,
      body: renderPrBody(jobView(opened.context), { carried: DEPENDENCIES }),
    });
    const updates = () => f.sim.requests().filter((r) => r.operation === 'pulls/update').length;
    const settle = (snapshot: JobSnapshot, version: number) => settled(f, snapshot, version);

    const before = updates();
    await settle(opened, beforeRound);
    // The body is as the job stood: nothing to write.
    expect(updates()).toBe(before);

    const done = at(rows.length);
    await settle(done, rows.length);
    const after = await body();
    expect(after).toBe(renderPrBody(jobView(done.context), { carried: DEPENDENCIES }));
    expect(after).toContain(DEPENDENCIES);
    expect(after).toMatch(/## Rounds\n\n- Round 1, for a review by @reviewer: pushed `[0-9a-f]{7}`/);
    expect(after).toContain('| round 1, 1 | 1 | ✅ passed (9 tests) |');
    expect(updates()).toBe(before + 1);

    // A restart: a new reporter reads the body, finds it current, and writes nothing.
    await settle(done, rows.length);
    expect(updates()).toBe(before + 1);
  });

  it('writes the dependency section from openPr’s logged result, whatever the body held', async () => {
    const f = await openPrFixture();
    const dependencies = [{ file: 'package.json', lines: ['+ms@^2.1.3 (dependencies)'] }];
    // The same log, from a booty that records the dependencies with the PR it opened.
    const logged = rows.map((r) =>
      r.type === 'StepSucceeded' && r.data.step === 'openPr'
        ? { ...r, data: { ...r.data, result: { ...(r.data.result as object), dependencies } } }
        : r,
    );
    const done = onFixture(f, logged)(logged.length);
    expect(done.context.pr?.dependencies).toEqual(dependencies);
    // A body that lost its section (a person's edit, or a write the section never reached).
    await (await f.clients.forJob(f.job)).rest.pulls.update({
      owner: 'acme',
      repo: 'widgets',
      pull_number: f.job.pr!.number,
      body: renderPrBody(jobView(done.context), { dependencies: [] }),
    });
    await settled(f, done, logged.length);
    const after = await bodyOf(f);
    expect(after).toContain(
      '## Dependency changes\n\n`package.json`:\n```diff\n+ms@^2.1.3 (dependencies)\n```',
    );
    expect(after).toBe(renderPrBody(jobView(done.context)));
  });
});

type Fixture = Awaited<ReturnType<typeof openPrFixture>>;

/** The recorded job, folded up to a row, on the fixture's repository and PR. */
const onFixture =
  (f: Fixture, log: StoredEvent[]) =>
  (upTo: number): JobSnapshot => {
    const s = foldJob(log.slice(0, upTo));
    const context = { ...s.context, repo: f.job.repo, issue: { ...s.context.issue, number: 1 } };
    return {
      ...s,
      context: { ...context, pr: s.context.pr && { ...s.context.pr, number: f.job.pr!.number } },
    };
  };

const bodyOf = async (f: Fixture) => {
  const gh = await f.clients.forJob(f.job);
  const { data } = await gh.rest.pulls.get({ owner: 'acme', repo: 'widgets', pull_number: f.job.pr!.number });
  return data.body;
};

/** One reporter, as a run after a restart has, brought to rest on the snapshot. */
async function settled(f: Fixture, snapshot: JobSnapshot, version: number) {
  const reporter = createProgressReporter({ comments: githubProgress(f.clients), store: noReports });
  reporter.changed({ jobId: snapshot.context.jobId, version, snapshot });
  await reporter.idle();
}

const noReports = { markReported: async () => {}, readStream: async () => [] };
