import { describe, expect, it } from 'vitest';
import { createGitHubClients } from '../../../src/forges/github/clients.js';
import type { RoundTrigger } from '../../../src/machines/job-context.js';
import { inRound, openPrFixture, type PrFixture, SECRET } from './pr-fixture.js';

const COMMIT = 'abc1234def5678abc1234def5678abc1234def56';

/** A person's own client: their reviews and comments go through the API as booty's do. */
async function as(f: PrFixture, login: string) {
  const clients = createGitHubClients({
    apiUrl: f.sim.url,
    auth: { kind: 'token', token: f.sim.tokenFor(login) },
    paced: false,
  });
  return clients.forRepo(f.job.repo);
}

async function review(f: PrFixture, login: string, body: string, comments: string[]) {
  const gh = await as(f, login);
  const { data } = await gh.rest.pulls.createReview({
    owner: 'acme',
    repo: 'widgets',
    pull_number: f.job.pr!.number,
    event: comments.length ? 'REQUEST_CHANGES' : 'COMMENT',
    body,
    comments: comments.map((c) => ({ path: 'add.js', line: 1, side: 'RIGHT', body: c })),
  });
  const threads = f.sim.reviewComments('acme', 'widgets').filter((c) => c.reviewId === data.id);
  return {
    id: data.id,
    comments: threads.map((c) => ({ id: c.id, path: c.path, line: c.line, body: c.body })),
  };
}

async function comment(f: PrFixture, login: string, issue: number, body: string) {
  const { data } = await (await as(f, login)).rest.issues.createComment({
    owner: 'acme',
    repo: 'widgets',
    issue_number: issue,
    body,
  });
  return data.id;
}

/** What booty wrote: GraphQL reads are POSTs too, so they are left out. */
const posts = (f: PrFixture) =>
  f.sim.requests().filter((r) => r.method === 'POST' && r.path !== '/graphql').length;

describe('answering a round', () => {
  it('replies in each review thread naming the commit, answers an @booty comment on the issue, and nothing twice', async () => {
    const f = await openPrFixture();
    const pr = f.job.pr!;
    const r = await review(f, 'alice', 'A few things', ['Rename add to sum', 'Add a JSDoc']);
    const asked = await comment(f, 'carol', 1, '\n@booty please also export it\nthanks!');
    const triggers: RoundTrigger[] = [
      {
        kind: 'feedback',
        place: 'review',
        author: 'alice',
        body: 'A few things',
        commentId: r.id,
        comments: r.comments,
        mention: false,
      },
      {
        kind: 'feedback',
        place: 'issue-comment',
        author: 'carol',
        body: '\n@booty please also export it\nthanks!',
        commentId: asked,
        comments: [],
        mention: true,
      },
      { kind: 'ci', sha: pr.headSha, failing: [] },
    ];
    const job = inRound(f.job, 2, triggers);

    expect(await f.effects.answerRound(job, { commit: COMMIT, note: null })).toEqual({ replies: 3 });

    const done = `Done in [\`abc1234\`](${pr.url}/commits/${COMMIT}).`;
    const replies = f.sim.reviewComments('acme', 'widgets').filter((c) => c.author === 'booty-bot');
    expect(replies.map((c) => [c.inReplyTo, c.body])).toEqual(
      r.comments.map((c) => [c.id, `<!-- booty:reply job=job-1 round=2 comment=${c.id} -->\n${done}`]),
    );
    const onIssue = f.sim.comments('acme', 'widgets', 1).filter((c) => c.author === 'booty-bot');
    expect(onIssue.map((c) => c.body)).toEqual([
      `<!-- booty:reply job=job-1 round=2 comment=${asked} -->\n@carol\n> @\u200bbooty please also export it\n\n${done}`,
    ]);
    expect(f.sim.comments('acme', 'widgets', pr.number)).toEqual([]);
    // The commit answered the review's threads: both resolved.
    const threads = f.sim.reviewComments('acme', 'widgets').filter((c) => c.inReplyTo === null);
    expect(threads.map((c) => [c.id, c.resolvedBy])).toEqual(r.comments.map((c) => [c.id, 'booty-bot']));

    // Answered again after a crash: everything is found, nothing is posted.
    const before = posts(f);
    expect(await f.effects.answerRound(job, { commit: COMMIT, note: null })).toEqual({ replies: 3 });
    expect(posts(f)).toBe(before);
  });

  it('answers a review without comments, a PR comment and a retry on the PR, saying why nothing was done', async () => {
    const f = await openPrFixture();
    const pr = f.job.pr!;
    const r = await review(f, 'alice', 'Could this handle strings too?', []);
    const onPr = await comment(f, 'bob', pr.number, '@booty use BigInt');
    const retry = await comment(f, 'bob', pr.number, '@booty retry');
    const job = inRound(f.job, 1, [
      {
        kind: 'feedback',
        place: 'review',
        author: 'alice',
        body: 'Could this handle strings too?',
        commentId: r.id,
        comments: [],
        mention: false,
      },
      {
        kind: 'feedback',
        place: 'pr-comment',
        author: 'bob',
        body: '@booty use BigInt',
        commentId: onPr,
        comments: [],
        mention: true,
      },
      { kind: 'command', command: 'retry', place: 'pr-comment', author: 'bob', commentId: retry },
    ]);
    const note = `The tests still fail: expected 3 to be 4 (${SECRET})`;

    expect(await f.effects.answerRound(job, { commit: null, note })).toEqual({ replies: 3 });

    const said = 'Not done: The tests still fail: expected 3 to be 4 ([redacted])';
    const mine = f.sim.comments('acme', 'widgets', pr.number).filter((c) => c.author === 'booty-bot');
    expect(mine.map((c) => c.body)).toEqual([
      `<!-- booty:reply job=job-1 round=1 comment=${r.id} -->\n@alice\n> Could this handle strings too?\n\n${said}`,
      `<!-- booty:reply job=job-1 round=1 comment=${onPr} -->\n@bob\n> @\u200bbooty use BigInt\n\n${said}`,
      `<!-- booty:reply job=job-1 round=1 comment=${retry} -->\n@bob Retried: ${said}`,
    ]);
    expect(f.sim.comments('acme', 'widgets', 1)).toEqual([]);
    expect(f.sim.reviewComments('acme', 'widgets')).toEqual([]);
  });

  it('posts only what is missing when a crash cut the first answer short', async () => {
    const f = await openPrFixture();
    const r = await review(f, 'alice', 'Two things', ['One', 'Two']);
    const job = inRound(f.job, 3, [
      {
        kind: 'feedback',
        place: 'review',
        author: 'alice',
        body: 'Two things',
        commentId: r.id,
        comments: r.comments,
        mention: false,
      },
    ]);
    // The first reply landed before the crash.
    await f.gh.rest.pulls.createReplyForReviewComment({
      owner: 'acme',
      repo: 'widgets',
      pull_number: f.job.pr!.number,
      comment_id: r.comments[0]!.id,
      body: `<!-- booty:reply job=job-1 round=3 comment=${r.comments[0]!.id} -->\nDone.`,
    });

    expect(await f.effects.answerRound(job, { commit: COMMIT, note: null })).toEqual({ replies: 2 });
    const replies = f.sim.reviewComments('acme', 'widgets').filter((c) => c.author === 'booty-bot');
    expect(replies.map((c) => c.inReplyTo)).toEqual([r.comments[0]!.id, r.comments[1]!.id]);
  });

  it('finds a reply whose answer was lost instead of posting it again', async () => {
    const f = await openPrFixture();
    const r = await review(f, 'alice', 'One thing', ['One']);
    const asked = await comment(f, 'carol', 1, '@booty and docs');
    const job = inRound(f.job, 1, [
      {
        kind: 'feedback',
        place: 'review',
        author: 'alice',
        body: 'One thing',
        commentId: r.id,
        comments: r.comments,
        mention: false,
      },
      {
        kind: 'feedback',
        place: 'issue-comment',
        author: 'carol',
        body: '@booty and docs',
        commentId: asked,
        comments: [],
        mention: true,
      },
    ]);
    f.sim.fault('pulls/create-reply-for-review-comment', { kind: 'lost-reply' });
    f.sim.fault('issues/create-comment', { kind: 'lost-reply' });

    expect(await f.effects.answerRound(job, { commit: COMMIT, note: null })).toEqual({ replies: 2 });
    expect(f.sim.reviewComments('acme', 'widgets').filter((c) => c.author === 'booty-bot')).toHaveLength(1);
    expect(f.sim.comments('acme', 'widgets', 1).filter((c) => c.author === 'booty-bot')).toHaveLength(1);
  });

  it('answers nothing between rounds, and nothing for CI alone', async () => {
    const f = await openPrFixture();
    const before = f.sim.requests().length;
    expect(await f.effects.answerRound(f.job, { commit: COMMIT, note: null })).toEqual({ replies: 0 });
    const job = inRound(f.job, 1, [{ kind: 'ci', sha: f.headSha, failing: [] }]);
    expect(await f.effects.answerRound(job, { commit: COMMIT, note: null })).toEqual({ replies: 0 });
    expect(f.sim.requests().length).toBe(before);
  });
});
