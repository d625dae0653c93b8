import { afterEach, describe, expect, it } from 'vitest';
import { type ConversationWorld, promotedJob } from './conversation-world.js';
import { OWNER, REPO, SECRET, TOKEN } from './e2e-world.js';

// What people say to a job waiting with its PR, end to end: a writer's `@booty <request>` on the PR
// or on the issue starts a round; booty's own comments start nothing; a human's commit on the branch
// is built on, never pushed over; closing the PR unmerged ends the job. Real HTTP, git and tests.

let c: ConversationWorld | null = null;
afterEach(async () => {
  await c?.close();
  c = null;
});

const reactionsOn = (w: ConversationWorld, commentId: number) =>
  w.world.github.commentReactions(OWNER, REPO, commentId).map((r) => [r.content, r.author]);

/** A writer, `maintainer`, comments on the PR (or on the issue numbered `on`): the comment made. */
async function maintainerComments(w: ConversationWorld, body: string, on = w.pr.number) {
  const { data } = await w
    .writer('maintainer')
    .rest.issues.createComment({ owner: OWNER, repo: REPO, issue_number: on, body });
  return data;
}

/** booty's replies to a comment in the job's first round: on every issue and PR, or on `on` only. */
const firstRoundRepliesTo = (w: ConversationWorld, commentId: number, on?: number) =>
  w.world.github
    .comments(OWNER, REPO, on)
    .filter((x) => x.body.includes(`<!-- booty:reply job=${w.jobId} round=1 comment=${commentId} -->`));

describe('@booty requests on a waiting job', () => {
  it.each([
    ['the PR', 'pr-comment' as const],
    ['the issue', 'issue-comment' as const],
  ])('a writer’s @booty <request> on %s starts a round, and the request gets 👀', async (_, place) => {
    c = await promotedJob();
    const first = c.pr.headSha;
    const calls = c.world.modelCalls('submit_changes');
    const where = place === 'pr-comment' ? c.pr.number : c.world.issue;
    const body = '@booty please also cover days';
    const comment = await maintainerComments(c, body, where);
    await c.quiet();

    const job = await c.job();
    expect(job.value).toBe('promoted');
    const { rounds } = job.context.conversation;
    expect(rounds).toEqual([
      {
        n: 1,
        triggers: [
          {
            kind: 'feedback',
            place,
            author: 'maintainer',
            body,
            commentId: comment.id,
            comments: [],
            mention: true,
          },
        ],
        firstAttempt: 2,
        base: first,
        result: 'pushed',
        commit: expect.stringMatching(/^[0-9a-f]{40}$/),
        note: null,
      },
    ]);
    const commit = rounds[0]!.commit!;
    // One new commit on top of the PR's head: a fast-forward, not a force-push.
    expect(c.pull().headSha).toBe(commit);
    expect(await c.git('rev-parse', `${commit}^`)).toBe(first);
    expect(await c.git('show', `${commit}:test/round-1.test.js`)).toContain("test('round 1: parses days'");
    expect(c.world.modelCalls('submit_changes')).toBe(calls + 1);
    expect(reactionsOn(c, comment.id)).toEqual([['eyes', 'booty-bot']]);
    // The answer goes where the request was asked, and names the commit.
    const replies = firstRoundRepliesTo(c, comment.id);
    expect(replies.map((r) => r.issueNumber)).toEqual([where]);
    expect(replies[0]!.body).toContain(`[\`${commit.slice(0, 7)}\`]`);
    await c.expectReplayVerified('promoted');
  });

  it.each([
    ['stop', 'no round is under way to stop'],
    ['approve', 'no plan is waiting for approval'],
    ['continue', 'the job is not waiting on its token budget'],
  ])(
    'a writer’s @booty %s with nothing for it to act on is answered once, saying what is missing',
    async (command, why) => {
      c = await promotedJob();
      const comment = await maintainerComments(c, `@booty ${command}`);
      await c.quiet();
      expect((await c.job()).value).toBe('promoted');
      const answers = c.world.github
        .comments(OWNER, REPO, c.pr.number)
        .filter((x) => x.body.includes(`<!-- booty:ignored comment=${comment.id} -->`));
      expect(answers.map((a) => a.body.replace(/<!--.*?-->/g, '').trim())).toEqual([
        `@maintainer \`@booty ${command}\` did nothing: ${why}.`,
      ]);
      expect(reactionsOn(c, comment.id)).toEqual([]);
    },
  );

  it('a redelivered request whose 👀 was lost gets it then, and starts nothing twice', async () => {
    c = await promotedJob();
    c.world.github.fault('reactions/create-for-issue-comment', { kind: 'bad-gateway' });
    const comment = await maintainerComments(c, '@booty please also cover days');
    await c.quiet();
    expect(reactionsOn(c, comment.id)).toEqual([]);
    const delivery = c.world.github
      .deliveries()
      .find((d) => d.event === 'issue_comment' && d.payload.includes(`"id":${comment.id},`))!;
    await c.world.github.redeliver(delivery.id);
    await c.quiet();
    expect(reactionsOn(c, comment.id)).toEqual([['eyes', 'booty-bot']]);
    expect((await c.job()).context.conversation.rounds).toHaveLength(1);
  });

  it('a writer’s @booty retry with nothing to retry says so, once, and asks nothing of the model', async () => {
    c = await promotedJob();
    const head = c.pr.headSha;
    const calls = c.world.anthropic.messages().length;
    const events = await c.logLength();
    const comment = await maintainerComments(c, '@booty retry');
    await c.quiet();

    const job = await c.job();
    expect(job.value).toBe('promoted');
    expect(job.context.conversation.rounds).toEqual([]);
    expect(await c.logLength()).toBe(events);
    expect(c.world.anthropic.messages()).toHaveLength(calls);
    expect(c.pull().headSha).toBe(head);
    const said = c.world.github
      .comments(OWNER, REPO, c.pr.number)
      .filter((x) => x.body.includes('`@booty retry` did nothing'));
    expect(said.map((x) => x.body.split('\n').at(-1))).toEqual([
      expect.stringMatching(
        /^@maintainer `@booty retry` did nothing: nothing failed that another round could redo/,
      ),
    ]);
    expect(said[0]!.body).toContain(`comment=${comment.id}`);
  });

  it('booty’s own comment calling on @booty starts nothing: the delivery is ignored and the log does not grow', async () => {
    c = await promotedJob();
    const calls = c.world.anthropic.messages().length;
    const events = await c.logLength();
    // What booty writes carries its marker; with a plain token booty's author is a user like any other.
    const res = await fetch(`${c.world.github.url}/repos/${OWNER}/${REPO}/issues/${c.pr.number}/comments`, {
      method: 'POST',
      headers: { authorization: `token ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ body: `<!-- booty:note job=${c.jobId} -->\n@booty retry` }),
    });
    expect(res.status).toBe(201);
    const comment = (await res.json()) as { id: number };
    await c.quiet();

    const sent = c.world.github
      .deliveries()
      .filter((d) => d.event === 'issue_comment' && JSON.parse(d.payload).comment.id === comment.id);
    expect(sent.map((d) => [d.action, d.status])).toEqual([['created', 202]]);
    expect(c.delivery(sent[0]!.id)).toEqual({ outcome: 'ignored', jobId: null });
    expect(await c.logLength()).toBe(events);
    expect(c.world.anthropic.messages()).toHaveLength(calls);
    expect(reactionsOn(c, comment.id)).toEqual([]);
    const job = await c.job();
    expect(job.value).toBe('promoted');
    expect(job.context.conversation.rounds).toEqual([]);
    await c.expectReplayVerified('promoted');
  });
});

describe('the branch and the PR, moved by people', () => {
  it('a writer’s commit on booty’s branch is kept: the round builds on it and pushes on top', async () => {
    c = await promotedJob();
    const first = c.pr.headSha;
    const human = await c.world.github.pushCommit(OWNER, REPO, {
      branch: c.branch,
      files: { 'NOTES.md': 'Durations round-trip.\n' },
      message: 'docs: a note',
      author: 'maintainer',
    });
    await c.quiet();
    let job = await c.job();
    expect(job.value).toBe('promoted');
    expect(job.context.pr).toMatchObject({ headSha: human, draft: false });

    const comment = await maintainerComments(c, '@booty please also cover days');
    await c.quiet();

    job = await c.job();
    expect(job.value).toBe('promoted');
    const [round] = job.context.conversation.rounds;
    expect(job.context.conversation.rounds).toHaveLength(1);
    expect(round).toMatchObject({ n: 1, base: human, result: 'pushed', note: null });
    expect(round!.triggers).toMatchObject([{ kind: 'feedback', commentId: comment.id }]);
    const commit = round!.commit!;
    expect(c.pull().headSha).toBe(commit);
    // The branch's history: booty's first commit, the human's, then the round's; nothing rewritten.
    expect((await c.git('rev-list', '--first-parent', '--max-count=3', commit)).split('\n')).toEqual([
      commit,
      human,
      first,
    ]);
    expect(await c.git('show', `${commit}:NOTES.md`)).toBe('Durations round-trip.');
    expect(await c.git('diff', '--name-only', human, commit)).toBe('test/round-1.test.js');
    await c.expectReplayVerified('promoted');
  });

  it('the PR closed without merging ends the job closed', async () => {
    c = await promotedJob();
    await c.world.github.closePull(OWNER, REPO, c.pr.number, { sender: 'maintainer' });
    await c.quiet();
    const job = await c.job();
    expect(job.value).toBe('closed');
    expect(job.context.outcome).toEqual({
      reason: 'pr-closed',
      message: 'The pull request was closed without merging by @maintainer.',
    });
    expect(await c.booty.store.getJob(c.jobId)).toMatchObject({ state: 'closed', final: true });
    await c.expectReplayVerified('closed');
  });

  it('the issue closed by the merge, its webhook first, ends the job merged, not cancelled', async () => {
    c = await promotedJob();
    const gh = c.world.github;
    // GitHub promises no order between the merge's pull_request and the issue it closes.
    gh.setWebhook(null);
    await gh.mergePull(OWNER, REPO, c.pr.number);
    gh.setWebhook({ url: `${c.booty.server.url}/webhooks`, secret: SECRET });
    gh.closeIssue(OWNER, REPO, c.world.issue, { sender: 'maintainer' });
    await c.quiet();
    const job = await c.job();
    expect(job.value).toBe('merged');
    expect(job.context.outcome?.reason).toBe('merged');
    const prClosed = gh.deliveries().find((d) => d.event === 'pull_request' && d.action === 'closed')!;
    await gh.redeliver(prClosed.id);
    await c.quiet();
    expect(c.delivery(prClosed.id)).toEqual({ outcome: 'ignored', jobId: null });
    expect((await c.job()).value).toBe('merged');
    await c.expectReplayVerified('merged');
  });

  it('the issue closed while its PR is open cancels the job', async () => {
    c = await promotedJob();
    c.world.github.closeIssue(OWNER, REPO, c.world.issue, { sender: 'maintainer' });
    await c.quiet();
    expect((await c.job()).value).toBe('cancelled');
    expect(c.pull().state).toBe('open');
  });
});
