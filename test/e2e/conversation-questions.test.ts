import { afterEach, describe, expect, it } from 'vitest';
import type { Responder } from '../../sim/anthropic/anthropic-simulator.js';
import { type ConversationWorld, followUpResponder, promotedJob } from './conversation-world.js';
import { OWNER, REPO } from './e2e-world.js';

// A waiting job's PR as a collaborator, end to end: a writer's question gets one answer and no
// commit, and `@booty stop` during a round ends it with nothing pushed, answers who asked and who
// stopped it, and leaves the ready PR ready. Real HTTP, git and tests, booty in this process.

let c: ConversationWorld | null = null;
afterEach(async () => {
  await c?.close();
  c = null;
});

async function maintainerComments(w: ConversationWorld, body: string) {
  w.world.github.setRole(OWNER, REPO, 'maintainer', 'write');
  const { data } = await w
    .writer('maintainer')
    .rest.issues.createComment({ owner: OWNER, repo: REPO, issue_number: w.pr.number, body });
  return data;
}

const prComments = (w: ConversationWorld) => w.world.github.comments(OWNER, REPO, w.pr.number);

/** Answers questions from the code, and otherwise as the conversation tests' model does. */
function answering(then: Responder): Responder {
  return (request) =>
    request.toolName === 'submit_answer'
      ? {
          answer: {
            answer: '`formatDuration` walks UNITS from days down and keeps the parts that are not zero.',
            references: [{ path: 'src/duration.js', line: 8, endLine: 19 }],
          },
        }
      : then(request);
}

describe('a writer’s @booty on a waiting job’s PR', () => {
  it('a question gets one answer, read at the PR’s head, and no commit; the PR stays as it was', async () => {
    c = await promotedJob();
    c.world.anthropic.setResponder(answering(followUpResponder()));
    const head = c.pr.headSha;
    const asked = await maintainerComments(c, '@booty how does formatDuration pick its units?');
    await c.quiet();

    const job = await c.job();
    expect(job.value).toBe('promoted');
    expect(job.context.conversation.rounds).toEqual([
      expect.objectContaining({
        n: 1,
        triggers: [expect.objectContaining({ kind: 'question', commentId: asked.id })],
        result: 'answered',
        commit: null,
        answer: expect.objectContaining({ commit: head, answered: true }),
      }),
    ]);
    expect(c.pull()).toMatchObject({ headSha: head, draft: false });
    const answers = prComments(c).filter((x) => x.body.includes(`comment=${asked.id} -->`));
    expect(answers).toHaveLength(1);
    expect(answers[0]!.body).toContain(`/blob/${head}/src/duration.js#L8-L19`);
    expect(answers[0]!.body).toContain('nothing was committed');
    expect(c.world.anthropic.messages().filter((r) => r.toolName === 'submit_answer')).toHaveLength(1);
    expect(c.world.anthropic.messages().filter((r) => r.toolName === 'submit_changes')).toEqual([]);
    await c.expectReplayVerified('promoted');
  });

  it('@booty stop during a round: nothing pushed, the stopper told what stopped, the ready PR left ready', async () => {
    c = await promotedJob();
    let asked!: () => void;
    const modelAsked = new Promise<void>((resolve) => {
      asked = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const follow = followUpResponder();
    c.world.anthropic.setResponder(async (request) => {
      if (request.toolName === 'submit_changes' && request.raw.includes('a follow-up round was asked for')) {
        asked();
        await released;
      }
      return follow(request);
    });
    const head = c.pr.headSha;
    const request = await maintainerComments(c, '@booty add a slow test');
    await modelAsked;
    const stop = await maintainerComments(c, '@booty stop');
    await c.world.github.settled();
    release();
    await c.quiet();

    const job = await c.job();
    expect(job.value).toBe('promoted');
    expect(job.context.conversation.rounds).toEqual([
      expect.objectContaining({ n: 1, result: 'stopped', commit: null, note: 'Stopped by @maintainer.' }),
    ]);
    expect(c.pull()).toMatchObject({ headSha: head, draft: false });
    const said = (id: number) => prComments(c!).filter((x) => x.body.includes(`comment=${id} -->`));
    expect(said(request.id).map((x) => x.body.split('\n').slice(1).join(' '))).toEqual([
      expect.stringContaining('Not done: Stopped by @maintainer.'),
    ]);
    expect(said(stop.id).map((x) => x.body.split('\n').at(-1))).toEqual([
      '@maintainer Stopped round 1 (1 request): nothing of it was pushed; the pull request stays ready.',
    ]);
    const drafts = c.world.github
      .deliveries()
      .filter((d) => d.event === 'pull_request' && d.action === 'converted_to_draft');
    expect(drafts).toEqual([]);
    await c.expectReplayVerified('promoted');
  });
});
