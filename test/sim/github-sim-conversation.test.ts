import { afterEach, describe, expect, it } from 'vitest';
import { ADD_JS, BRANCH, OWNER, prWorld, REPO } from './pr-world.js';

// The PR conversation on the simulated GitHub, over real HTTP: reviews and review comments by
// people with their own tokens, replies, issue comments on a PR, reactions, and the webhooks each
// sends. Every reply is held to GitHub's OpenAPI description (`problems()` stays empty).

type World = Awaited<ReturnType<typeof prWorld>>;
let world: World | null = null;
afterEach(async () => {
  if (world) expect(world.sim.problems()).toEqual([]);
  await world?.close();
  world = null;
});

describe('PR reviews', () => {
  it('takes a review with inline comments from a person, and sends pull_request_review and its comments', async () => {
    world = await prWorld();
    const { sim, hooks, where } = world;
    const pr = await world.openPr();
    sim.setRole(OWNER, REPO, 'alice', 'write');
    const alice = world.person('alice');
    hooks.clear();

    const { data: review } = await alice.rest.pulls.createReview({
      ...where,
      pull_number: pr.number,
      event: 'REQUEST_CHANGES',
      body: 'Handle negatives, please.',
      comments: [{ path: 'add.js', line: 1, body: 'What about add(-1, 1)?' }],
    });

    expect(review).toMatchObject({
      state: 'CHANGES_REQUESTED',
      body: 'Handle negatives, please.',
      commit_id: pr.sha,
      user: { login: 'alice', type: 'User' },
      author_association: 'COLLABORATOR',
      pull_request_url: `${sim.url}/repos/acme/widgets/pulls/${pr.number}`,
    });
    expect(review.submitted_at).toMatch(/Z$/);
    const listed = await alice.rest.pulls.listReviews({ ...where, pull_number: pr.number });
    expect(listed.data.map((r) => [r.id, r.state])).toEqual([[review.id, 'CHANGES_REQUESTED']]);
    const got = await alice.rest.pulls.getReview({ ...where, pull_number: pr.number, review_id: review.id });
    expect(got.data.body).toBe('Handle negatives, please.');

    const { data: inReview } = await alice.rest.pulls.listCommentsForReview({
      ...where,
      pull_number: pr.number,
      review_id: review.id,
    });
    expect(inReview).toHaveLength(1);
    expect(inReview[0]).toMatchObject({
      pull_request_review_id: review.id,
      path: 'add.js',
      line: 1,
      side: 'RIGHT',
      position: 1,
      subject_type: 'line',
      commit_id: pr.sha,
      body: 'What about add(-1, 1)?',
      diff_hunk: `@@ -0,0 +1 @@\n+${ADD_JS.trimEnd()}`,
      user: { login: 'alice' },
    });
    const onPr = await alice.rest.pulls.listReviewComments({ ...where, pull_number: pr.number });
    expect(onPr.data.map((c) => c.id)).toEqual([inReview[0]!.id]);

    await sim.settled();
    expect(hooks.names()).toEqual(['pull_request_review.submitted', 'pull_request_review_comment.created']);
    expect(hooks.received.every((r) => r.signed)).toBe(true);
    const [submitted, commented] = hooks.received;
    expect(submitted!.payload).toMatchObject({
      action: 'submitted',
      // Webhooks spell the state in lower case.
      review: {
        id: review.id,
        state: 'changes_requested',
        body: 'Handle negatives, please.',
        commit_id: pr.sha,
      },
      pull_request: { number: pr.number, head: { ref: BRANCH, sha: pr.sha }, draft: false },
      repository: { full_name: 'acme/widgets' },
      sender: { login: 'alice', type: 'User' },
    });
    expect(commented!.payload).toMatchObject({
      action: 'created',
      comment: { id: inReview[0]!.id, pull_request_review_id: review.id, path: 'add.js', line: 1 },
      pull_request: { number: pr.number },
      sender: { login: 'alice' },
    });
  });

  it('threads a reply under the first comment, as a review of its own, and takes a lone review comment', async () => {
    world = await prWorld();
    const { sim, hooks, where, booty } = world;
    const pr = await world.openPr({ 'add.js': ADD_JS, 'sub.js': 'export const sub = (a, b) => a - b;\n' });
    const alice = world.person('alice');
    const { data: lone } = await alice.rest.pulls.createReviewComment({
      ...where,
      pull_number: pr.number,
      commit_id: pr.sha,
      path: 'sub.js',
      line: 1,
      body: 'Name it subtract?',
    });
    expect(lone).toMatchObject({ path: 'sub.js', line: 1, side: 'RIGHT', start_line: null });
    expect(lone.in_reply_to_id).toBeUndefined();
    await sim.settled();
    hooks.clear();

    const { data: reply } = await booty.rest.pulls.createReplyForReviewComment({
      ...where,
      pull_number: pr.number,
      comment_id: lone.id,
      body: 'Renamed in the next commit.',
    });
    const { data: second } = await alice.rest.pulls.createReplyForReviewComment({
      ...where,
      pull_number: pr.number,
      comment_id: reply.id,
      body: 'Thanks!',
    });

    // Every reply hangs under the thread's first comment, at its place.
    expect([reply.in_reply_to_id, second.in_reply_to_id]).toEqual([lone.id, lone.id]);
    expect(reply).toMatchObject({
      path: 'sub.js',
      line: 1,
      diff_hunk: lone.diff_hunk,
      user: { login: 'booty-bot' },
    });
    expect(new Set([lone, reply, second].map((c) => c.pull_request_review_id)).size).toBe(3);
    const got = await alice.rest.pulls.getReviewComment({ ...where, comment_id: reply.id });
    expect(got.data.body).toBe('Renamed in the next commit.');
    const reviews = await alice.rest.pulls.listReviews({ ...where, pull_number: pr.number });
    expect(reviews.data.map((r) => [r.user?.login, r.state, r.body])).toEqual([
      ['alice', 'COMMENTED', ''],
      ['booty-bot', 'COMMENTED', ''],
      ['alice', 'COMMENTED', ''],
    ]);
    await sim.settled();
    expect(
      hooks.of('pull_request_review_comment', 'created').map((r) => r.payload.comment.in_reply_to_id),
    ).toEqual([lone.id, lone.id]);
    expect(hooks.of('pull_request_review', 'submitted')).toHaveLength(2);
  });

  it('refuses what GitHub refuses: approving one’s own PR, a line outside the diff, an unknown comment', async () => {
    world = await prWorld();
    const { where, booty, sim } = world;
    const pr = await world.openPr();
    const alice = world.person('alice');
    const refusal = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e) => [e.status, e.response.data.errors],
      );

    expect(
      await refusal(booty.rest.pulls.createReview({ ...where, pull_number: pr.number, event: 'APPROVE' })),
    ).toEqual([422, ['Can not approve your own pull request']]);
    const review = (comments: { path: string; line: number; body: string }[]) =>
      alice.rest.pulls.createReview({
        ...where,
        pull_number: pr.number,
        event: 'COMMENT',
        body: 'x',
        comments,
      });
    expect(await refusal(review([{ path: 'add.js', line: 7, body: 'x' }]))).toEqual([
      422,
      ['Line could not be resolved'],
    ]);
    expect(await refusal(review([{ path: 'README.md', line: 1, body: 'x' }]))).toEqual([
      422,
      ['Path could not be resolved'],
    ]);
    const missing = await booty.rest.pulls
      .createReplyForReviewComment({ ...where, pull_number: pr.number, comment_id: 1, body: 'x' })
      .catch((e) => e.status);
    expect(missing).toBe(404);
    expect(sim.reviews(OWNER, REPO)).toEqual([]);
  });

  it('keeps a pending review (no event) to its author, and sends nothing for it', async () => {
    world = await prWorld();
    const { where, sim, hooks } = world;
    const pr = await world.openPr();
    hooks.clear();
    const alice = world.person('alice');
    const { data } = await alice.rest.pulls.createReview({
      ...where,
      pull_number: pr.number,
      comments: [{ path: 'add.js', line: 1, body: 'draft thought' }],
    });
    expect(data.state).toBe('PENDING');
    expect(data.submitted_at).toBeUndefined();
    const mine = await alice.rest.pulls.listReviews({ ...where, pull_number: pr.number });
    const theirs = await world.booty.rest.pulls.listReviews({ ...where, pull_number: pr.number });
    expect([mine.data.length, theirs.data.length]).toEqual([1, 0]);
    const comments = await world.booty.rest.pulls.listReviewComments({ ...where, pull_number: pr.number });
    expect(comments.data).toEqual([]);
    await sim.settled();
    expect(hooks.received).toEqual([]);
  });
});

describe('issue comments on a PR, and reactions', () => {
  it('treats a PR as an issue: a comment on it sends issue_comment with issue.pull_request', async () => {
    world = await prWorld();
    const { where, sim, hooks } = world;
    const pr = await world.openPr();
    hooks.clear();
    const alice = world.person('alice');

    const { data: comment } = await alice.rest.issues.createComment({
      ...where,
      issue_number: pr.number,
      body: '@booty please add a test for negatives',
    });

    expect(comment.html_url).toBe(`${sim.url}/acme/widgets/pull/${pr.number}#issuecomment-${comment.id}`);
    const { data: issue } = await alice.rest.issues.get({ ...where, issue_number: pr.number });
    expect(issue.pull_request?.url).toBe(`${sim.url}/repos/acme/widgets/pulls/${pr.number}`);
    expect(issue.comments).toBe(1);
    const listed = await world.booty.rest.issues.listComments({ ...where, issue_number: pr.number });
    expect(listed.data.map((c) => [c.user?.login, c.body])).toEqual([
      ['alice', '@booty please add a test for negatives'],
    ]);
    await sim.settled();
    expect(hooks.names()).toEqual(['issue_comment.created']);
    expect(hooks.received[0]!.signed).toBe(true);
    expect(hooks.received[0]!.payload).toMatchObject({
      action: 'created',
      issue: {
        number: pr.number,
        pull_request: { url: `${sim.url}/repos/acme/widgets/pulls/${pr.number}`, merged_at: null },
      },
      comment: { id: comment.id, body: '@booty please add a test for negatives', author_association: 'NONE' },
      sender: { login: 'alice' },
    });
  });

  it('answers a new reaction 201 and the same one again 200 with the reaction already there', async () => {
    world = await prWorld();
    const { where, sim, booty } = world;
    const pr = await world.openPr();
    const alice = world.person('alice');
    const { data: comment } = await alice.rest.issues.createComment({
      ...where,
      issue_number: pr.number,
      body: 'hi',
    });
    const { data: review } = await alice.rest.pulls.createReview({
      ...where,
      pull_number: pr.number,
      event: 'COMMENT',
      comments: [{ path: 'add.js', line: 1, body: 'nit' }],
    });
    const [inline] = (
      await alice.rest.pulls.listCommentsForReview({ ...where, pull_number: pr.number, review_id: review.id })
    ).data;

    const onComment = (content: 'eyes' | 'rocket', as = booty) =>
      as.rest.reactions.createForIssueComment({ ...where, comment_id: comment.id, content });
    const first = await onComment('eyes');
    const again = await onComment('eyes');
    const other = await onComment('rocket');
    const hers = await onComment('eyes', alice);
    expect([first.status, again.status, other.status, hers.status]).toEqual([201, 200, 201, 201]);
    expect(again.data.id).toBe(first.data.id);
    expect(first.data).toMatchObject({ content: 'eyes', user: { login: 'booty-bot' } });

    const onInline = () =>
      booty.rest.reactions.createForPullRequestReviewComment({
        ...where,
        comment_id: inline!.id,
        content: '+1',
      });
    const [a, b] = [await onInline(), await onInline()];
    expect([a.status, b.status, b.data.id]).toEqual([201, 200, a.data.id]);

    const listed = await booty.rest.reactions.listForIssueComment({ ...where, comment_id: comment.id });
    expect(listed.data.map((r) => [r.content, r.user?.login])).toEqual([
      ['eyes', 'booty-bot'],
      ['rocket', 'booty-bot'],
      ['eyes', 'alice'],
    ]);
    const onlyEyes = await booty.rest.reactions.listForIssueComment({
      ...where,
      comment_id: comment.id,
      content: 'eyes',
    });
    expect(onlyEyes.data).toHaveLength(2);
    const inlineListed = await booty.rest.reactions.listForPullRequestReviewComment({
      ...where,
      comment_id: inline!.id,
    });
    expect(inlineListed.data.map((r) => r.content)).toEqual(['+1']);
    const { data: counted } = await booty.rest.issues.getComment({ ...where, comment_id: comment.id });
    expect(counted.reactions).toMatchObject({ total_count: 3, eyes: 2, rocket: 1, '+1': 0 });
    expect(
      sim.commentReactions(OWNER, REPO, comment.id).map((r) => [r.subject, r.content, r.author]),
    ).toEqual([
      ['issue_comment', 'eyes', 'booty-bot'],
      ['issue_comment', 'rocket', 'booty-bot'],
      ['issue_comment', 'eyes', 'alice'],
    ]);
    // Reactions on comments are not the issue's own.
    expect(sim.reactions(OWNER, REPO, pr.number)).toEqual([]);
  });
});

describe('who may do what', () => {
  it.each([
    ['admin', 'admin', { admin: true, maintain: true, push: true, triage: true, pull: true }],
    ['maintain', 'write', { admin: false, maintain: true, push: true, triage: true, pull: true }],
    ['write', 'write', { admin: false, maintain: false, push: true, triage: true, pull: true }],
    ['triage', 'read', { admin: false, maintain: false, push: false, triage: true, pull: true }],
    ['read', 'read', { admin: false, maintain: false, push: false, triage: false, pull: true }],
    ['none', 'none', { admin: false, maintain: false, push: false, triage: false, pull: false }],
  ] as const)('a user with role %s has permission %s', async (role, permission, permissions) => {
    world = await prWorld();
    world.sim.setRole(OWNER, REPO, 'carol', role);
    const { data } = await world.booty.rest.repos.getCollaboratorPermissionLevel({
      ...world.where,
      username: 'carol',
    });
    expect(data).toMatchObject({ permission, role_name: role, user: { login: 'carol', permissions } });
  });

  it('gives the owner admin and anyone else read on the public repository', async () => {
    world = await prWorld();
    const level = async (username: string) =>
      (await world!.booty.rest.repos.getCollaboratorPermissionLevel({ ...world!.where, username })).data;
    expect(await level('acme')).toMatchObject({ permission: 'admin', role_name: 'admin' });
    expect(await level('dave')).toMatchObject({
      permission: 'read',
      role_name: 'read',
      user: { type: 'User' },
    });
    expect(await level('renovate[bot]')).toMatchObject({ permission: 'read', user: { type: 'Bot' } });
  });
});
