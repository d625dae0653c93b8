import { afterEach, describe, expect, it } from 'vitest';
import { type ConversationWorld, promotedJob } from './conversation-world.js';
import { OWNER, REPO } from './e2e-world.js';

// The approval after the loop is the PR review itself (#15 item 6): a writer's "changes requested"
// sends the job back through the loop, and the model is asked with the reviewer's own words, the
// review's body and its line comment. A reader's `@booty approve` on a waiting job is answered
// once and changes nothing.

let c: ConversationWorld | null = null;
afterEach(async () => {
  await c?.close();
  c = null;
});

describe('changes requested in a review', () => {
  it('go back to the loop with the reviewer’s words, and the round pushes its commit', async () => {
    c = await promotedJob();
    const before = c.world.anthropic.messages().length;
    await c.writer('reviewer').rest.pulls.createReview({
      owner: OWNER,
      repo: REPO,
      pull_number: c.pr.number,
      event: 'REQUEST_CHANGES',
      body: 'Days are missing: "2d" must parse too.',
      comments: [{ path: 'test/parse-duration.test.js', line: 1, body: 'Add a test for "2d" here.' }],
    });
    await c.quiet();

    const job = await c.job();
    expect(job.context.conversation.rounds).toMatchObject([
      { n: 1, result: 'pushed', triggers: [{ kind: 'feedback', place: 'review', author: 'reviewer' }] },
    ]);
    const asked = c.world.anthropic
      .messages()
      .slice(before)
      .filter((m) => m.toolName === 'submit_changes');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.raw).toContain('Days are missing: \\"2d\\" must parse too.');
    expect(asked[0]!.raw).toContain('Add a test for \\"2d\\" here.');
    expect(c.pull().headSha).toBe(job.context.conversation.rounds[0]!.commit);
    await c.expectReplayVerified(job.value as string);
  });

  it('a reader’s @booty approve is answered once and ignored', async () => {
    c = await promotedJob();
    const { world } = c;
    const rounds = (await c.job()).context.conversation.rounds.length;
    const reader = world.github.tokenFor('passerby');
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${world.github.url}/repos/${OWNER}/${REPO}/issues/${world.issue}/comments`, {
        method: 'POST',
        headers: { authorization: `token ${reader}`, 'content-type': 'application/json' },
        body: JSON.stringify({ body: '@booty approve' }),
      });
      expect(res.status).toBe(201);
    }
    await c.quiet();
    expect((await c.job()).context.conversation.rounds).toHaveLength(rounds);
    // One note per comment: two comments, two notes, and never a third on a redelivery.
    // The note goes to the job's PR, where the job's conversation is.
    const notes = world.github
      .comments(OWNER, REPO)
      .filter((m) => m.body.includes('only people with write access'));
    expect(notes).toHaveLength(2);
    await c.expectReplayVerified('promoted');
  });
});
