import { afterEach, describe, expect, it } from 'vitest';
import { personOn } from '../support/github-person.js';
import { type ConversationWorld, promotedJob } from './conversation-world.js';
import { OWNER, REPO } from './e2e-world.js';

// Review threads and suggestion blocks, end to end on the simulated GitHub (#31 point 4): the
// threads a round's commit answered are resolved and the others stay open, and `@booty apply
// suggestions` commits the writers' blocks as written, with no model call, saying what it left.

let c: ConversationWorld | null = null;
afterEach(async () => {
  await c?.close();
  c = null;
});

const THREADS = `query($owner: String!, $name: String!, $number: Int!) {
  repository(owner: $owner, name: $name) { pullRequest(number: $number) {
    reviewThreads(first: 100) { nodes { isResolved comments(first: 10) { nodes { databaseId } } } }
  } }
}`;

interface Threads {
  repository: {
    pullRequest: {
      reviewThreads: { nodes: { isResolved: boolean; comments: { nodes: { databaseId: number }[] } }[] };
    };
  };
}

/** Each thread's first comment id, and whether the thread is resolved, as GraphQL answers. */
async function threads(w: ConversationWorld) {
  const data = await personOn(w.world.github, 'reviewer').graphql<Threads>(THREADS, {
    owner: OWNER,
    name: REPO,
    number: w.pr.number,
  });
  return Object.fromEntries(
    data.repository.pullRequest.reviewThreads.nodes.map((t) => [
      t.comments.nodes[0]!.databaseId,
      t.isResolved,
    ]),
  );
}

describe('review threads and suggestions', () => {
  it('resolves the threads its commits answered, leaves the rest open, and applies suggestions as written', async () => {
    c = await promotedJob();
    const { number } = c.pr;
    // A writer's review: a round with the model, whose commit answers its one thread.
    const asked = await c.writer('reviewer').rest.pulls.createReview({
      owner: OWNER,
      repo: REPO,
      pull_number: number,
      event: 'REQUEST_CHANGES',
      body: 'Days are missing.',
      comments: [{ path: 'test/parse-duration.test.js', line: 1, body: 'Add a test for "2d" here.' }],
    });
    await c.quiet();
    const [answered] = (
      await c.writer('reviewer').rest.pulls.listReviewComments({
        owner: OWNER,
        repo: REPO,
        pull_number: number,
      })
    ).data.filter((x) => x.pull_request_review_id === asked.data.id);
    expect((await c.job()).context.conversation.rounds.map((r) => r.result)).toEqual(['pushed']);

    // Someone without write access suggests: their review asks nothing of booty, but a writer may apply it.
    const head = c.pull().headSha;
    const lines = (await c.git('show', `${head}:src/duration.js`)).split('\n');
    const at = lines.findIndex((l) => l.startsWith('export function parseDuration')) + 1;
    const suggested = `${lines[at - 1]} // "1h 30m" -> 5_400_000`;
    await personOn(c.world.github, 'passerby').rest.pulls.createReview({
      owner: OWNER,
      repo: REPO,
      pull_number: number,
      event: 'COMMENT',
      comments: [
        {
          path: 'src/duration.js',
          line: at,
          body: `Say what it gives:\n\`\`\`suggestion\n${suggested}\n\`\`\``,
        },
        {
          path: 'src/duration.js',
          start_line: at + 1,
          line: at + 2,
          body: '```suggestion\n  return null;\n```',
        },
        { path: 'src/duration.js', line: at + 3, body: 'Is this right?' },
      ],
    });
    await c.quiet();
    const listed = (
      await c.writer('reviewer').rest.pulls.listReviewComments({
        owner: OWNER,
        repo: REPO,
        pull_number: number,
      })
    ).data.filter((x) => x.user?.login === 'passerby');
    const [good, stale, plain] = listed.sort((a, b) => a.id - b.id);
    // A person's commit changes the lines the second suggestion was written on: it goes stale.
    const changed = [...lines];
    changed[at] = `${changed[at]} // checked`;
    const human = await c.world.github.pushCommit(OWNER, REPO, {
      branch: c.branch,
      files: { 'src/duration.js': changed.join('\n') },
      author: 'maintainer',
    });
    await c.quiet();

    const calls = c.world.anthropic.messages().length;
    const { data: command } = await c.writer('maintainer').rest.issues.createComment({
      owner: OWNER,
      repo: REPO,
      issue_number: number,
      body: '@booty apply suggestions',
    });
    await c.quiet();

    const job = await c.job();
    const round = job.context.conversation.rounds.at(-1)!;
    expect(round).toMatchObject({
      n: 2,
      triggers: [{ kind: 'command', command: 'apply', author: 'maintainer', commentId: command.id }],
      result: 'pushed',
      suggestions: {
        applied: [
          { commentId: good!.id, author: 'passerby', path: 'src/duration.js', startLine: at, line: at },
        ],
        skipped: [{ commentId: stale!.id, reason: expect.stringContaining('stale') }],
      },
    });
    // No model call; one commit on top of the person's, holding the block exactly as written.
    expect(c.world.anthropic.messages()).toHaveLength(calls);
    const commit = round.commit!;
    expect(c.pull().headSha).toBe(commit);
    expect(await c.git('rev-parse', `${commit}^`)).toBe(human);
    const expected = [...changed];
    expected[at - 1] = suggested;
    expect(await c.git('show', `${commit}:src/duration.js`)).toBe(expected.join('\n'));
    expect(await c.git('diff', '--name-only', human, commit)).toBe('src/duration.js');

    // Answered once, where asked: what was applied, and what could not be.
    const replies = c.world.github
      .comments(OWNER, REPO, number)
      .filter((x) => x.body.includes(`round=2 comment=${command.id} -->`));
    expect(replies).toHaveLength(1);
    expect(replies[0]!.body).toContain(`Applied 1 suggestion as written`);
    expect(replies[0]!.body).toContain(`#${good!.id}`);
    expect(replies[0]!.body).toMatch(new RegExp(`Could not apply:\\n- .*#${stale!.id}.*stale`));

    // The review round's thread and the applied suggestion's are resolved; the others stay open.
    expect(await threads(c)).toEqual({
      [answered!.id]: true,
      [good!.id]: true,
      [stale!.id]: false,
      [plain!.id]: false,
    });
    await c.expectReplayVerified(job.value as string);
  });
});
