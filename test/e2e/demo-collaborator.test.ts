import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startGitHubSimulator } from '../../sim/github/github-simulator.js';
import { tempDir } from '../support/job-harness.js';
import { booty, demoJson, exec } from './cli-process.js';

// `booty demo --scenario mention`, `question` and `person-pr` as a user runs them: the real CLI in
// its own process, offline, each started by a writer's `@booty` with no label. The end is read from
// the demo's JSON summary, from `booty replay --verify`, and from the simulated GitHub's records
// and git once the demo has stopped.

const OWNER = 'demo';
const REPO = 'tiny-durations';

let gh: Awaited<ReturnType<typeof startGitHubSimulator>> | null = null;
afterEach(async () => {
  await gh?.close();
  gh = null;
});

async function afterTheDemo(dir: string) {
  const github = await startGitHubSimulator({ dir: path.join(dir, 'github') });
  gh = github;
  const bare = path.join(dir, 'github', 'git', OWNER, `${REPO}.git`);
  const git = async (...args: string[]) => (await exec('git', ['--git-dir', bare, ...args])).stdout.trim();
  return { github, git };
}

async function replayVerified(jobId: string, db: string, finalState: string) {
  const replay = await booty(['replay', jobId, '--verify', '--json', '--db', db]);
  expect(replay.code).toBe(0);
  expect(JSON.parse(replay.stdout)).toMatchObject({ jobId, verified: true, finalState });
}

describe('booty demo: booty as a collaborator', () => {
  it('mention: a writer’s @booty on the unlabeled issue ends in a promoted PR', async () => {
    const dir = tempDir('booty-demo-mention-');
    const out = await demoJson('mention', dir);
    expect(out).toMatchObject({
      scenario: 'mention',
      finalState: 'promoted',
      attempts: 1,
      ok: true,
      rounds: [],
    });
    expect(out.pullRequest).toMatchObject({ number: 2, draft: false });
    await replayVerified(out.jobId, out.db, 'promoted');

    const { github } = await afterTheDemo(dir);
    // No label was ever put on the issue: the comment started the job, and was acknowledged.
    expect(github.issues(OWNER, REPO)[0]!.labels).toEqual([]);
    const asked = github.comments(OWNER, REPO, 1).find((c) => c.author === 'monalisa')!;
    expect(asked.body).toBe('@booty please implement this.');
    expect(github.commentReactions(OWNER, REPO, asked.id).map((r) => r.content)).toEqual(['eyes']);
  });

  it('question: one answer naming the lines it read, and no commit, branch or PR', async () => {
    const dir = tempDir('booty-demo-question-');
    const out = await demoJson('question', dir);
    expect(out).toMatchObject({
      scenario: 'question',
      finalState: 'answered',
      attempts: 0,
      pullRequest: null,
      ok: true,
      rounds: [{ n: 1, triggers: ['question'], result: 'answered', commit: null }],
    });
    await replayVerified(out.jobId, out.db, 'answered');

    const { github, git } = await afterTheDemo(dir);
    const main = await git('rev-parse', 'main');
    const answers = github.comments(OWNER, REPO, 1).filter((c) => c.body.includes('booty:reply'));
    expect(answers).toHaveLength(1);
    expect(answers[0]!.body).toContain('formatDuration');
    expect(answers[0]!.body).toContain(`/blob/${main}/src/duration.js#L8-L19`);
    expect(answers[0]!.body).toContain('nothing was committed');
    expect(github.pulls(OWNER, REPO)).toEqual([]);
    expect(await git('for-each-ref', '--format=%(refname)', 'refs/heads')).toBe('refs/heads/main');
  });

  it('person-pr: @booty on a PR a person opened puts one commit on top of their branch', async () => {
    const dir = tempDir('booty-demo-person-pr-');
    const out = await demoJson('person-pr', dir);
    expect(out).toMatchObject({
      scenario: 'person-pr',
      finalState: 'promoted',
      ok: true,
      rounds: [{ n: 1, triggers: ['feedback'], result: 'pushed' }],
    });
    await replayVerified(out.jobId, out.db, 'promoted');

    const { github, git } = await afterTheDemo(dir);
    const [pr] = github.pulls(OWNER, REPO);
    expect(pr).toMatchObject({
      number: 2,
      head: 'monalisa/parse-duration',
      author: 'monalisa',
      draft: false,
    });
    const commit = out.rounds[0].commit as string;
    expect(pr!.headSha).toBe(commit);
    // The person's commit, then booty's on top of it: nothing of theirs rewritten.
    const commits = (await git('rev-list', '--reverse', '--parents', `main..${commit}`)).split('\n');
    expect(commits).toHaveLength(2);
    const [theirs, ours] = commits.map((l) => l.split(' '));
    expect(ours![1]).toBe(theirs![0]);
    expect(await git('log', '-1', '--format=%an', theirs![0]!)).toBe('monalisa');
    expect(await git('show', `${commit}:test/parse-duration.test.js`)).toContain("parseDuration('2d')");
    // No branch of booty's own, and the answer names the commit where it was asked.
    expect(await git('for-each-ref', '--format=%(refname)', 'refs/heads/booty')).toBe('');
    const reply = github.comments(OWNER, REPO, 2).find((c) => c.body.includes('booty:reply'));
    expect(reply?.body).toContain(commit.slice(0, 7));
  });
});
