import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Responder } from '../../sim/anthropic/anthropic-simulator.js';
import { demoResponder, examplesDir } from '../../src/demo/demo-script.js';
import { expectReplayVerified } from './conversation-world.js';
import { e2eWorld, OWNER, REPO } from './e2e-world.js';

// The PR conversation end to end in one process: the job waits with its promoted PR, a writer's
// review wakes it for a round (a commit on top of the branch and a reply in the thread), a reader
// is answered and ignored, and the merge ends the job. Real HTTP, real git, real test runs.

type World = Awaited<ReturnType<typeof e2eWorld>>;
let world: World | null = null;
afterEach(async () => {
  await world?.close();
  world = null;
});

const testFile = fs.readFileSync(path.join(examplesDir, 'demo-turns', 'parse-duration.test.js'), 'utf8');
const ONE_MORE_CASE = `${testFile}\ntest('parses days', () => {\n  assert.equal(parseDuration('2d'), 172_800_000);\n});\n`;

/** The demo's model, which answers a follow-up round with one more test case. */
function withFollowUp(): Responder {
  const demo = demoResponder('pass');
  return (request) => {
    if (request.toolName === 'submit_changes' && request.raw.includes('a follow-up round was asked for')) {
      return {
        answer: {
          explanation: 'Adds the case the reviewer asked for.',
          changes: [{ path: 'test/parse-duration.test.js', content: ONE_MORE_CASE }],
          deletePaths: [],
        },
      };
    }
    return demo(request);
  };
}

async function promotedJob() {
  world = await e2eWorld('pass');
  world.anthropic.setResponder(withFollowUp());
  const booty = await world.startInProcess();
  await world.label();
  const [job] = await booty.store.listJobs();
  expect((await booty.server.supervisor.whenFinished(job!.jobId)).value).toBe('promoted');
  return { booty, jobId: job!.jobId, pr: world.pulls()[0]! };
}

describe('the PR conversation end to end', () => {
  it('a review from a writer starts a round: a commit on top of the branch and a reply in its thread', async () => {
    const { booty, jobId, pr } = await promotedJob();
    const w = world!;
    w.github.setRole(OWNER, REPO, 'reviewer', 'write');
    const first = pr.headSha;
    await fetch(`${w.github.url}/repos/${OWNER}/${REPO}/pulls/${pr.number}/reviews`, {
      method: 'POST',
      headers: {
        authorization: `token ${w.github.tokenFor('reviewer')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        event: 'COMMENT',
        body: 'Please also cover days.',
        comments: [{ path: 'test/parse-duration.test.js', line: 1, body: 'Add a case for "2d".' }],
      }),
    }).then((r) => expect(r.status).toBe(200));
    await w.github.settled();
    await booty.server.supervisor.onIdle();
    const after = await booty.server.supervisor.whenFinished(jobId);
    expect(after.value).toBe('promoted');
    const [round] = after.context.conversation.rounds;
    expect(round).toMatchObject({ n: 1, result: 'pushed', base: first });
    // A new commit on top of the first one, not a force-push.
    const pull = w.pulls()[0]!;
    expect(pull.headSha).toBe(round!.commit);
    expect(pull.headSha).not.toBe(first);
    // One reply in the review comment's thread names the commit; the review's comment got 👀.
    const replies = w.github
      .reviewComments(OWNER, REPO, pr.number)
      .filter((c: any) => c.inReplyTo != null || c.inReplyToId != null);
    expect(replies).toHaveLength(1);
    expect(JSON.stringify(replies[0])).toContain(round!.commit!.slice(0, 7));
    await expectReplayVerified(w.dir, jobId, 'promoted');
  });

  it('an @booty request from a reader is answered where it was asked, and ignored: no round, no tokens', async () => {
    const { booty, jobId, pr } = await promotedJob();
    const w = world!;
    const calls = w.modelCalls('submit_changes');
    const issue = (await booty.store.getJob(jobId))!.issue;
    for (const number of [pr.number, issue]) {
      const res = await fetch(`${w.github.url}/repos/${OWNER}/${REPO}/issues/${number}/comments`, {
        method: 'POST',
        headers: {
          authorization: `token ${w.github.tokenFor('passerby')}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ body: '@booty also handle weeks' }),
      });
      expect(res.status).toBe(201);
    }
    await w.github.settled();
    await booty.server.supervisor.onIdle();
    expect(w.modelCalls('submit_changes')).toBe(calls);
    expect((await booty.server.supervisor.whenFinished(jobId)).context.conversation.rounds).toEqual([]);
    // One note on the PR and one on the issue: each reader is answered where they wrote.
    for (const number of [pr.number, issue]) {
      const notes = w.github
        .comments(OWNER, REPO, number)
        .filter((c: any) => c.body.includes('only people with write access'));
      expect(notes).toHaveLength(1);
    }
    await expectReplayVerified(w.dir, jobId, 'promoted');
  });

  it('the merge ends the job merged', async () => {
    const { booty, jobId, pr } = await promotedJob();
    await world!.github.mergePull(OWNER, REPO, pr.number);
    await booty.server.supervisor.onIdle();
    const after = await booty.server.supervisor.whenFinished(jobId);
    expect(after.value).toBe('merged');
    expect((await booty.store.getJob(jobId))?.final).toBe(true);
    await expectReplayVerified(world!.dir, jobId, 'merged');
  });
});
