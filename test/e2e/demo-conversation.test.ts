import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startGitHubSimulator } from '../../sim/github/github-simulator.js';
import { foldJob, type JobSnapshot } from '../../src/machines/fold.js';
import { readJobLog } from '../../src/store/job-log.js';
import { SqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import { tempDir } from '../support/job-harness.js';
import { booty, demoJson, exec, killWhen, lastJson, startDemo } from './cli-process.js';

// `booty demo --scenario review` and `--scenario ci-red` as a user runs them: the real CLI in its
// own process, offline. The job's end is read three ways: the demo's JSON, the job's own log
// folded again, and the simulated GitHub's records and git, read after the demo has stopped.

const OWNER = 'demo';
const REPO = 'tiny-durations';

/** The demo's GitHub, as it stood when the demo stopped. */
let gh: Awaited<ReturnType<typeof startGitHubSimulator>> | null = null;
afterEach(async () => {
  await gh?.close();
  gh = null;
});

async function afterTheDemo(dir: string, jobId: string) {
  const github = await startGitHubSimulator({ dir: path.join(dir, 'github') });
  gh = github;
  const store = new SqliteEventStore(path.join(dir, 'booty.db'));
  const job: JobSnapshot = foldJob(await readJobLog(store, jobId));
  await store.close();
  const bare = path.join(dir, 'github', 'git', OWNER, `${REPO}.git`);
  const git = async (...args: string[]) => (await exec('git', ['--git-dir', bare, ...args])).stdout.trim();
  return { github, job, git };
}

/** What happened to the PR, in order, as its webhooks told it. */
const prActions = (github: NonNullable<typeof gh>) =>
  github
    .deliveries()
    .filter((d) => d.event === 'pull_request')
    .map((d) => d.action);

async function replayVerified(jobId: string, db: string) {
  const replay = await booty(['replay', jobId, '--verify', '--json', '--db', db]);
  expect(replay.code).toBe(0);
  expect(JSON.parse(replay.stdout)).toMatchObject({ jobId, verified: true, finalState: 'promoted' });
}

/** The PR's commits since it branched off main, oldest first, each with its parent. */
async function branchCommits(git: (...args: string[]) => Promise<string>, head: string) {
  const lines = (await git('rev-list', '--reverse', '--parents', `main..${head}`)).split('\n');
  return lines.map((l) => {
    const [sha, ...parents] = l.split(' ');
    return { sha: sha!, parents };
  });
}

describe('booty demo: the PR conversation', () => {
  it('review: a writer asks for one more case; a commit on top of the branch answers, with a reply in the thread naming it', async () => {
    const dir = tempDir('booty-demo-review-');
    const out = await demoJson('review', dir);
    expect(out).toMatchObject({
      scenario: 'review',
      finalState: 'promoted',
      attempts: 2,
      ok: true,
      ci: null,
    });
    expect(out.pullRequest).toMatchObject({ number: 2, draft: false });
    const commit: string = out.pullRequest.headSha;
    expect(out.rounds).toEqual([{ n: 1, triggers: ['feedback'], result: 'pushed', commit }]);

    const { github, job, git } = await afterTheDemo(dir, out.jobId);
    expect(job.value).toBe('promoted');
    const [round] = job.context.conversation.rounds;
    expect(round).toMatchObject({ n: 1, result: 'pushed', commit, firstAttempt: 2 });
    expect(round!.triggers).toMatchObject([
      {
        kind: 'feedback',
        place: 'review',
        author: 'monalisa',
        comments: [{ path: 'test/parse-duration.test.js' }],
      },
    ]);

    // Two commits on the branch, the round's on top of the first: nothing was force-pushed.
    const [first, second] = await branchCommits(git, commit);
    expect(await branchCommits(git, commit)).toHaveLength(2);
    expect(second).toEqual({ sha: commit, parents: [first!.sha] });
    expect(round!.base).toBe(first!.sha);
    expect(await git('show', `${commit}:test/parse-duration.test.js`)).toContain("parseDuration('2d')");

    // One review by the reviewer (booty's reply is a review of its own, as on GitHub); its
    // comment has one reply, booty's, naming the commit.
    expect(github.reviews(OWNER, REPO, 2).map((r) => r.author)).toEqual(['monalisa', 'booty-demo']);
    const [asked, reply, ...more] = github.reviewComments(OWNER, REPO, 2);
    expect(more).toEqual([]);
    expect(asked).toMatchObject({ author: 'monalisa', inReplyTo: null });
    expect(reply).toMatchObject({ author: 'booty-demo', inReplyTo: asked!.id });
    expect(reply!.body).toContain(`Done in [\`${commit.slice(0, 7)}\`]`);
    expect(out.replies).toEqual([{ inReplyTo: asked!.id, body: reply!.body }]);
    expect(github.workflowRuns(OWNER, REPO)).toEqual([]);
    // The body is rewritten once, when the round ends: it lists the round.
    expect(prActions(github)).toEqual(['opened', 'ready_for_review', 'synchronize', 'edited']);
    expect(github.pulls(OWNER, REPO)[0]!.body).toMatch(
      /## Rounds\n\n- Round 1, for a review by @\S+: pushed `[0-9a-f]{7}`/,
    );

    await replayVerified(out.jobId, out.db);
  });

  it('ci-red: CI fails on the first head, re-run once and red again; a round fixes it and green CI makes the PR ready', async () => {
    const dir = tempDir('booty-demo-ci-red-');
    const out = await demoJson('ci-red', dir);
    expect(out).toMatchObject({
      scenario: 'ci-red',
      finalState: 'promoted',
      attempts: 2,
      ok: true,
      replies: [],
    });
    expect(out.pullRequest).toMatchObject({ number: 2, draft: false });
    const commit: string = out.pullRequest.headSha;
    expect(out.rounds).toEqual([{ n: 1, triggers: ['ci'], result: 'pushed', commit }]);
    expect(out.ci).toEqual({ state: 'passed', sha: commit, reruns: 1 });

    const { github, job, git } = await afterTheDemo(dir, out.jobId);
    const [first, second] = await branchCommits(git, commit);
    expect(await branchCommits(git, commit)).toHaveLength(2);
    expect(second).toEqual({ sha: commit, parents: [first!.sha] });

    // The round started from CI's failure on the first head: the lint job's log, cut to its failing step.
    const { conversation } = job.context;
    expect(conversation.reruns).toEqual([first!.sha]);
    const [round] = conversation.rounds;
    expect(round).toMatchObject({ n: 1, result: 'pushed', commit, base: first!.sha });
    expect(round!.triggers).toEqual([
      {
        kind: 'ci',
        sha: first!.sha,
        failing: [
          {
            name: 'lint',
            kind: 'check',
            url: expect.stringMatching(/\/demo\/tiny-durations\/actions\/runs\/\d+\/job\/\d+$/),
            detail: [
              'Run Check line length (at most 100)',
              'test/parse-duration.test.js:17:101: line is 125 characters long; at most 100',
              '1 line(s) too long',
              'Error: Process completed with exit code 1.',
            ].join('\n'),
          },
        ],
      },
    ]);
    expect(conversation.ci).toMatchObject({ sha: commit, state: 'passed', total: 2, failing: [] });

    // GitHub's side: CI passed on main; the first head's run failed twice (its one re-run, by
    // booty); the fix's run passed.
    const runs = github.workflowRuns(OWNER, REPO);
    expect(runs.map((r) => [r.headSha, r.attempt, r.conclusion])).toEqual([
      [await git('rev-parse', 'main'), 1, 'success'],
      [first!.sha, 2, 'failure'],
      [commit, 1, 'success'],
    ]);
    expect(runs.map((r) => r.triggeringActor)).toEqual(['demo', 'booty-demo', 'demo']);
    const jobsOf = (runId: number) =>
      github
        .jobs(OWNER, REPO)
        .filter((j) => j.runId === runId)
        .map((j) => [j.name, j.attempt, j.conclusion]);
    expect(jobsOf(runs[1]!.id)).toEqual([
      ['lint', 1, 'failure'],
      ['test', 1, 'success'],
      ['lint', 2, 'failure'],
    ]);
    expect(jobsOf(runs[2]!.id)).toEqual([
      ['lint', 1, 'success'],
      ['test', 1, 'success'],
    ]);
    const checks = github.checkRuns(OWNER, REPO).filter((c) => c.headSha === commit);
    expect(checks.map((c) => [c.name, c.status, c.conclusion])).toEqual([
      ['lint', 'completed', 'success'],
      ['test', 'completed', 'success'],
    ]);
    const fixed = await git('show', `${commit}:test/parse-duration.test.js`);
    expect(Math.max(...fixed.split('\n').map((l) => l.length))).toBeLessThanOrEqual(100);
    expect(github.pulls(OWNER, REPO)[0]).toMatchObject({ number: 2, draft: false, headSha: commit });
    // Made ready once, after green CI on the fix: never ready while CI had not spoken.
    // The body is rewritten once, when the round that fixed CI ends.
    expect(prActions(github)).toEqual(['opened', 'synchronize', 'edited', 'ready_for_review']);

    await replayVerified(out.jobId, out.db);
  });

  it.each([
    // Killed with the round under way, and with booty's re-run of CI asked for.
    ['review', /\bsyncing\b/],
    ['ci-red', /\brerunningCi\b/],
  ] as const)(
    'given %s interrupted mid-conversation, when run again on the same dir, then it reaches the same end, nothing done twice',
    async (scenario, killAt) => {
      const dir = tempDir(`booty-demo-${scenario}-`);
      await killWhen(startDemo(scenario, dir), (o) => killAt.test(o));

      const again = await booty(['demo', '--scenario', scenario, '--dir', dir, '--json']);
      expect(again.code).toBe(0);
      const out = lastJson(again.stdout);
      expect(out).toMatchObject({ finalState: 'promoted', attempts: 2, ok: true });
      expect(out.rounds).toEqual([
        {
          n: 1,
          triggers: [scenario === 'review' ? 'feedback' : 'ci'],
          result: 'pushed',
          commit: out.pullRequest.headSha,
        },
      ]);

      const { github, git } = await afterTheDemo(dir, out.jobId);
      expect(await branchCommits(git, out.pullRequest.headSha)).toHaveLength(2);
      if (scenario === 'review') {
        expect(github.reviews(OWNER, REPO, 2).map((r) => r.author)).toEqual(['monalisa', 'booty-demo']);
        expect(github.reviewComments(OWNER, REPO, 2)).toHaveLength(2);
      } else {
        expect(out.ci).toEqual({ state: 'passed', sha: out.pullRequest.headSha, reruns: 1 });
        expect(github.workflowRuns(OWNER, REPO).map((r) => [r.attempt, r.conclusion])).toEqual([
          [1, 'success'],
          [2, 'failure'],
          [1, 'success'],
        ]);
      }
      await replayVerified(out.jobId, out.db);
    },
  );
});
