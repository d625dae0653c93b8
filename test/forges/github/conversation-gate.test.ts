import { describe, expect, it } from 'vitest';
import { conversationGate, isWriter } from '../../../src/forges/github/conversation-gate.js';
import { calls, openPrFixture } from './pr-fixture.js';

const repo = { forge: 'github' as const, owner: 'acme', name: 'widgets' };
const PERMISSION = 'repos/get-collaborator-permission-level';

describe('who may steer booty', () => {
  it('reads each role, and only write access and above may steer', async () => {
    const f = await openPrFixture();
    for (const [login, role] of [
      ['mia', 'maintain'],
      ['wes', 'write'],
      ['tia', 'triage'],
      ['nan', 'none'],
    ] as const) {
      f.sim.setRole('acme', 'widgets', login, role);
    }
    const gate = conversationGate(f.clients);
    const seen: Record<string, [string, boolean]> = {};
    for (const login of ['acme', 'mia', 'wes', 'tia', 'rex', 'nan']) {
      const permission = await gate.permission(repo, null, login);
      seen[login] = [permission, isWriter(permission)];
    }
    expect(seen).toEqual({
      acme: ['admin', true],
      mia: ['maintain', true],
      wes: ['write', true],
      tia: ['triage', false],
      rex: ['read', false], // anyone reads a public repository
      nan: ['none', false],
    });
  });

  it('asks GitHub once per person within the cache time, and again after it', async () => {
    const f = await openPrFixture();
    f.sim.setRole('acme', 'widgets', 'wes', 'write');
    let now = 1_000_000;
    const gate = conversationGate(f.clients, { ttlMs: 60_000, now: () => now });

    expect(await gate.permission(repo, null, 'wes')).toBe('write');
    expect(await gate.permission(repo, null, 'WES')).toBe('write');
    now += 59_999;
    expect(await gate.permission(repo, null, 'wes')).toBe('write');
    expect(calls(f, PERMISSION)).toBe(1);

    // A role taken away shows once the cached answer is stale.
    f.sim.setRole('acme', 'widgets', 'wes', 'read');
    now += 1;
    expect(await gate.permission(repo, null, 'wes')).toBe('read');
    expect(calls(f, PERMISSION)).toBe(2);
  });
});

describe('acknowledging a request', () => {
  it('puts 👀 on an issue comment once, however often it is asked', async () => {
    const f = await openPrFixture();
    const { data } = await f.gh.rest.issues.createComment({
      owner: 'acme',
      repo: 'widgets',
      issue_number: 1,
      body: '@booty do it',
    });
    const gate = conversationGate(f.clients);
    expect(await gate.react(repo, null, 'issue-comment', data.id)).toBe(true);
    expect(await gate.react(repo, null, 'issue-comment', data.id)).toBe(true);
    expect(f.sim.commentReactions('acme', 'widgets', data.id).map((r) => r.content)).toEqual(['eyes']);
  });

  it("puts 👀 on a review's first comment, and on nothing for a review without comments", async () => {
    const f = await openPrFixture();
    const { data: review } = await f.gh.rest.pulls.createReview({
      owner: 'acme',
      repo: 'widgets',
      pull_number: f.job.pr!.number,
      event: 'COMMENT',
      body: 'Two notes',
      comments: [
        { path: 'add.js', line: 1, side: 'RIGHT', body: 'one' },
        { path: 'add.js', line: 1, side: 'RIGHT', body: 'two' },
      ],
    });
    const [first, second] = f.sim.reviewComments('acme', 'widgets');
    const gate = conversationGate(f.clients);

    expect(await gate.react(repo, null, 'review', review.id, [first!.id, second!.id])).toBe(true);
    expect(await gate.react(repo, null, 'review', review.id, [first!.id, second!.id])).toBe(true);
    expect(f.sim.commentReactions('acme', 'widgets', first!.id).map((r) => r.content)).toEqual(['eyes']);
    expect(f.sim.commentReactions('acme', 'widgets', second!.id)).toEqual([]);

    const before = f.sim.requests().length;
    expect(await gate.react(repo, null, 'review', review.id)).toBe(false);
    expect(f.sim.requests().length).toBe(before);
  });

  it('tells a reader once that only writers steer booty', async () => {
    const f = await openPrFixture();
    const gate = conversationGate(f.clients);
    expect(await gate.replyToReader(repo, null, 1, 'rex', 4242)).toBe(true);
    expect(await gate.replyToReader(repo, null, 1, 'rex', 4242)).toBe(false);
    expect(f.sim.comments('acme', 'widgets', 1).map((c) => c.body)).toEqual([
      '<!-- booty:reader comment=4242 -->\n@rex only people with write access to this repository can steer booty; a maintainer can repeat the request.',
    ]);
  });
});
