import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Responder } from '../../sim/anthropic/anthropic-simulator.js';
import { ciGreen, ciRed } from '../../sim/github/github-sim-ci-script.js';
import { bareDir } from '../../sim/github/github-sim-git.js';
import { demoResponder, examplesDir } from '../../src/demo/demo-script.js';
import { foldJob } from '../../src/machines/fold.js';
import { stateName } from '../../src/machines/job-states.js';
import { readJobLog } from '../../src/store/job-log.js';
import { SqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import { personOn } from '../support/github-person.js';
import { copyOfWorld, e2eWorld, OWNER, REPO, SECRET } from './e2e-world.js';
import { serve } from './fixtures/crash-serve.js';
import { type CrashingServe, crashingServe } from './fixtures/crashing-serve.js';

// A job that waits with its promoted PR is woken for a follow-up round, by a writer's review or by
// red CI, and `booty serve` is killed with SIGKILL right after event k of that round, for every k:
// each new process on the same files takes the job from its log and dies after the next event.
// GitHub's side must end as in the uninterrupted run: the same commits on the branch, one reply per
// review comment, one 👀, one re-run, one comment.
// The first job runs once: the clean and the crashed run start from copies of its files (GitHub's,
// booty's database and workdir), so the round's commit, built from the log, is the very same commit.
// An `@booty apply suggestions` round is killed at one point only: the moment its push has landed,
// before the step that pushed (and replies) has logged its result.

const REVIEWER = 'reviewer';

const testFile = fs.readFileSync(path.join(examplesDir, 'demo-turns', 'parse-duration.test.js'), 'utf8');
const ONE_MORE_CASE = `${testFile}\ntest('parses days', () => {\n  assert.equal(parseDuration('2d'), 172_800_000);\n});\n`;

/** The demo's model, which answers a follow-up round (a review's or CI's) with one more test case. */
function withFollowUp(): Responder {
  const demo = demoResponder('pass');
  return (request) =>
    request.toolName === 'submit_changes' && request.raw.includes('a follow-up round was asked for')
      ? {
          answer: {
            explanation: 'Adds the case that was asked for.',
            changes: [{ path: 'test/parse-duration.test.js', content: ONE_MORE_CASE }],
            deletePaths: [],
          },
        }
      : demo(request);
}

interface Parked {
  dir: string;
  env: Record<string, string>;
  jobId: string;
  issue: number;
  pr: number;
  branch: string;
  head: string;
  /** The job's log version when it parked. */
  version: number;
}

/** One job run by `booty serve` to its promoted PR, where it waits; every process has exited. */
async function parkedWorld(): Promise<Parked> {
  const world = await e2eWorld('pass', { responder: withFollowUp() });
  try {
    const env = world.env({ LOG_LEVEL: 'warn' });
    const booty = serve(env);
    world.github.setWebhook({ url: `${await booty.url}/webhooks`, secret: SECRET });
    await world.label();
    const [, jobId, state, version] = await booty.next(/^SETTLED (\S+) (\S+) (\d+)$/);
    expect(state).toBe('promoted');
    booty.proc.kill('SIGTERM');
    expect(await booty.exited).toBe(0);
    await world.github.settled();
    // Set up before the copies, so each copy has the same reviewer (and ids) as the others.
    world.github.setRole(OWNER, REPO, REVIEWER, 'write');
    world.github.tokenFor(REVIEWER);
    const [pr] = world.pulls();
    return {
      dir: world.dir,
      env,
      jobId: jobId!,
      issue: world.issue,
      pr: pr!.number,
      branch: pr!.head,
      head: pr!.headSha,
      version: Number(version),
    };
  } finally {
    await world.close();
  }
}

type Copy = Awaited<ReturnType<typeof copyOf>>;

/** The parked world's files copied, with a GitHub and a model of their own. */
const copyOf = (parked: Parked) => copyOfWorld(parked, withFollowUp());

/** The job's end and GitHub's side of it, as a crashed run must reproduce it. */
async function outcome(copy: Copy, parked: Parked) {
  const store = new SqliteEventStore(copy.env.BOOTY_DB);
  const log = await readJobLog(store, parked.jobId);
  const events = (await store.readStream(parked.jobId)).slice(parked.version).map((e) => e.type);
  await store.close();
  const job = foldJob(log);
  const gh = copy.github;
  const [pull] = gh.pulls(OWNER, REPO);
  const requests = gh.requests();
  const asked = gh.reviewComments(OWNER, REPO, parked.pr).filter((c) => c.inReplyTo === null);
  const commits = execFileSync('git', ['rev-list', parked.branch], {
    cwd: bareDir(gh.dir, OWNER, REPO),
    encoding: 'utf8',
  });
  return {
    events,
    end: {
      state: stateName(job),
      rounds: job.context.conversation.rounds.map((r) => ({
        n: r.n,
        result: r.result,
        commit: r.commit,
        triggers: r.triggers.map((t) => t.kind),
      })),
      draft: pull!.draft,
      head: pull!.headSha,
      commits: commits.trim().split('\n'),
      replies: gh
        .reviewComments(OWNER, REPO, parked.pr)
        .filter((c) => c.inReplyTo !== null)
        .map((c) => ({ to: c.inReplyTo, author: c.author, body: c.body })),
      eyes: asked.flatMap((c) => gh.commentReactions(OWNER, REPO, c.id)).filter((r) => r.content === 'eyes')
        .length,
      comments: gh.comments(OWNER, REPO).map((c) => ({
        on: c.issueNumber,
        author: c.author,
        marker: /<!-- booty:(\w+)/.exec(c.body)?.[1] ?? null,
      })),
      pushes: requests.filter((r) => r.method === 'POST' && r.path.endsWith('/git-receive-pack')).length,
      reruns: requests
        .filter((r) => r.method === 'POST' && r.path.endsWith('/rerun-failed-jobs'))
        .map((r) => r.path),
      runs: gh.workflowRuns(OWNER, REPO).map((r) => ({ head: r.headSha, attempt: r.attempt })),
      changes: copy.anthropic.messages().filter((m) => m.toolName === 'submit_changes' && m.status === 200)
        .length,
    },
  };
}

type Scenario = (copy: Copy, life: CrashingServe, parked: Parked) => Promise<void>;

/** A writer's review with one comment on a line; the round answers in that comment's thread. */
const review: Scenario = async (copy, life, parked) => {
  const res = await fetch(`${copy.github.url}/repos/${OWNER}/${REPO}/pulls/${parked.pr}/reviews`, {
    method: 'POST',
    headers: {
      authorization: `token ${copy.github.tokenFor(REVIEWER)}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      event: 'COMMENT',
      body: 'Please also cover days.',
      comments: [{ path: 'test/parse-duration.test.js', line: 1, body: 'Add a case for "2d".' }],
    }),
  });
  expect(res.status).toBe(200);
  await life.settled('promoted');
};

/**
 * CI on the PR's head goes red, and red again on booty's re-run (only then is the PR turned
 * draft); the round's commit is green. Each
 * run finishes when the test says, once the job waits for it.
 */
const redCi: Scenario = async (copy, life, parked) => {
  const gh = copy.github;
  const red = ciRed({ log: ['not ok 4 - parses days', '  expected 172800000, got NaN'] });
  gh.scriptCi(OWNER, REPO, { branch: parked.branch, heads: [[red, red], ciGreen()], completes: 'on-demand' });
  await gh.runCi(OWNER, REPO, { sha: parked.head, branch: parked.branch });
  await gh.completeCi(OWNER, REPO);
  await life.settled('promoted'); // its failed jobs re-run, the PR left ready meanwhile
  await gh.completeCi(OWNER, REPO);
  await life.settled('prOpened'); // red again: turned draft, the round's commit pushed, CI on it not finished
  await gh.completeCi(OWNER, REPO);
  await life.settled('promoted');
};

/** Runs the scenario on a copy of the parked world, with serve killed after every event from `firstKill`. */
async function runCase(parked: Parked, scenario: Scenario, firstKill: number | null) {
  const copy = await copyOf(parked);
  try {
    const life = crashingServe(copy, firstKill);
    await life.start();
    await scenario(copy, life, parked);
    await life.stop();
    return { kills: life.kills, ...(await outcome(copy, parked)) };
  } finally {
    await copy.close();
  }
}

/** The scenario run clean, and run with serve killed after every event from `first` on. */
const cleanAndCrashed = (parked: Parked, scenario: Scenario, first: number) =>
  Promise.all([runCase(parked, scenario, null), runCase(parked, scenario, first)]);

/** The crashed run must end as the clean one did, GitHub's side included. */
function expectSameEnd(parked: Parked, clean: Case, crashed: Case, first: number) {
  // GitHub's webhooks and the job's reads of CI interleave as they come, so a run may log fewer
  // events than the clean one: each it logged from `first` on, the last included, killed a process.
  expect(crashed.kills).toBe(parked.version + crashed.events.length - first + 1);
  expect(crashed.end).toEqual(clean.end);
}

type Case = Awaited<ReturnType<typeof runCase>>;

describe('booty serve killed during a follow-up round', () => {
  let parked: Parked;
  beforeAll(async () => {
    parked = await parkedWorld();
  }, 60_000);

  it('a review round killed after every event ends as the uninterrupted one: one commit, one reply, one 👀', async () => {
    // From the first event after the review's. Killed right after that one, serve dies inside the
    // webhook's request, before its 👀, and GitHub does not send a failed delivery again.
    const first = parked.version + 2;
    const [clean, crashed] = await cleanAndCrashed(parked, review, first);
    expect(clean.events[0]).toBe('FeedbackReceived');
    const { end } = clean;
    expect(end).toMatchObject({
      state: 'promoted',
      rounds: [{ n: 1, result: 'pushed', triggers: ['feedback'] }],
      draft: false,
      eyes: 1,
      pushes: 1,
      reruns: [],
      changes: 1,
    });
    // One commit on top of the head the job parked with: the round's.
    expect(end.commits.slice(0, 2)).toEqual([end.rounds[0]!.commit, parked.head]);
    expect(end.head).toBe(end.rounds[0]!.commit);
    expect(end.replies).toEqual([
      expect.objectContaining({ author: 'booty-bot', body: expect.stringContaining(end.head.slice(0, 7)) }),
    ]);
    // The progress comment alone: booty's reply (a review of its own on GitHub) is not answered.
    expect(end.comments).toEqual([{ on: parked.issue, author: 'booty-bot', marker: 'progress' }]);
    expectSameEnd(parked, clean, crashed, first);
  }, 300_000);

  it('a CI round killed after every event ends as the uninterrupted one: one re-run per head, one commit, no comment twice', async () => {
    const first = parked.version + 1;
    const [clean, crashed] = await cleanAndCrashed(parked, redCi, first);
    const { end } = clean;
    expect(end).toMatchObject({
      state: 'promoted',
      rounds: [{ n: 1, result: 'pushed', triggers: ['ci'] }],
      draft: false,
      eyes: 0,
      replies: [],
      pushes: 1,
      changes: 1,
    });
    expect(end.reruns).toHaveLength(1);
    expect(end.comments).toEqual([
      { on: parked.issue, author: 'booty-bot', marker: 'progress' },
      { on: parked.pr, author: 'booty-bot', marker: 'demoted' },
    ]);
    expect(end.commits.slice(0, 2)).toEqual([end.rounds[0]!.commit, parked.head]);
    expect(end.runs).toEqual([
      { head: parked.head, attempt: 2 },
      { head: end.head, attempt: 1 },
    ]);
    expectSameEnd(parked, clean, crashed, first);
  }, 300_000);

  it('an apply-suggestions round killed right after its push, before the step is logged, neither pushes nor replies twice', async () => {
    const copy = await copyOf(parked);
    try {
      const gh = copy.github;
      const repo = { owner: OWNER, repo: REPO };
      // Someone without write access suggests a line; a writer asks booty to apply it.
      const bare = bareDir(gh.dir, OWNER, REPO);
      const show = (rev: string) => execFileSync('git', ['show', rev], { cwd: bare, encoding: 'utf8' });
      const first = show(`${parked.head}:test/parse-duration.test.js`).split('\n')[0]!;
      const suggested = `${first} // as suggested`;
      await personOn(gh, 'passerby').rest.pulls.createReview({
        ...repo,
        pull_number: parked.pr,
        event: 'COMMENT',
        comments: [
          { path: 'test/parse-duration.test.js', line: 1, body: `\`\`\`suggestion\n${suggested}\n\`\`\`` },
        ],
      });
      await gh.settled();

      const booty = serve(copy.env);
      gh.setWebhook({ url: `${await booty.url}/webhooks`, secret: SECRET });
      gh.onPush(() => booty.proc.kill('SIGKILL'));
      const { data: command } = await personOn(gh, REVIEWER).rest.issues.createComment({
        ...repo,
        issue_number: parked.pr,
        body: '@booty apply suggestions',
      });
      expect(await booty.exited).toBe('SIGKILL');
      gh.onPush(null);
      // Killed where meant: the push landed, the round's answer is not logged, nobody was answered.
      const store = new SqliteEventStore(copy.env.BOOTY_DB);
      const last = (await store.readStream(parked.jobId)).at(-1)!;
      await store.close();
      expect([last.type, last.data.step]).toEqual(['StepSucceeded', 'suggestions']);
      await gh.settled();
      const pushedHead = execFileSync('git', ['rev-parse', parked.branch], {
        cwd: bare,
        encoding: 'utf8',
      }).trim();
      expect(pushedHead).not.toBe(parked.head);
      const replies = () => gh.comments(OWNER, REPO, parked.pr).filter((c) => c.body.includes('booty:reply'));
      expect(replies()).toEqual([]);

      // A new process takes the job from its log and finishes the round.
      const life = crashingServe(copy, null);
      await life.start();
      await life.settled('promoted');
      await life.stop();
      const { end } = await outcome(copy, parked);
      expect(end).toMatchObject({
        state: 'promoted',
        rounds: [{ n: 1, result: 'pushed', commit: pushedHead, triggers: ['command'] }],
        head: pushedHead,
        pushes: 1,
        changes: 0,
      });
      expect(end.commits.slice(0, 2)).toEqual([pushedHead, parked.head]);
      expect(show(`${pushedHead}:test/parse-duration.test.js`).split('\n')[0]).toBe(suggested);
      expect(replies()).toEqual([
        expect.objectContaining({
          author: 'booty-bot',
          body: expect.stringContaining(`comment=${command.id} -->`),
        }),
      ]);
    } finally {
      await copy.close();
    }
  }, 300_000);
});
