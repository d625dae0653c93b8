import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Responder } from '../../sim/anthropic/anthropic-simulator.js';
import { demoResponder } from '../../src/demo/demo-script.js';
import { cli } from '../support/cli.js';
import { personOn } from '../support/github-person.js';
import { expectReplayVerified } from './conversation-world.js';
import { e2eWorld, OWNER, REPO, sampleRepoWith } from './e2e-world.js';

// The refine loop's controls end to end in the simulators: real HTTP, real git, real test runs.
// A loop that stops improving stops early and asks the people `escalate` names for review; a plan
// waits for a writer's `@booty approve` (after a `@booty revise`); a job at its token budget waits
// for `@booty continue` and then finishes. Each job's log replays verified.

type World = Awaited<ReturnType<typeof e2eWorld>>;
let world: World | null = null;
afterEach(async () => {
  await world?.close();
  world = null;
});

/** The demo's buggy change every time, each attempt's a little different (a comment naming it). */
function neverBetter(): Responder {
  const demo = demoResponder('exhausted');
  return async (request) => {
    const turn = await demo(request);
    if (request.toolName !== 'submit_changes' || !turn || !('answer' in turn)) return turn;
    const attempt = new Set(request.raw.match(/Attempt \d+:/g) ?? []).size + 1;
    const answer = turn.answer as { changes: { path: string; content: string }[] };
    return {
      answer: {
        ...answer,
        changes: answer.changes.map((c) =>
          c.path.startsWith('src/') ? { ...c, content: `// attempt ${attempt}\n${c.content}` } : c,
        ),
      },
    };
  };
}

async function start(env: Record<string, string> = {}, options: Parameters<typeof e2eWorld>[1] = {}) {
  world = await e2eWorld('pass', options);
  const booty = await world.startInProcess(env);
  const w = world;
  const { supervisor } = booty.server;
  const logLength = async (jobId: string) => (await booty.store.readStream(jobId)).length;
  return {
    booty,
    /** Until nothing moves: every webhook tried, every job run, every comment written. */
    async quiet(jobId: string) {
      for (;;) {
        const before = [w.github.requests().length, await logLength(jobId)];
        await w.github.settled();
        await supervisor.onIdle();
        await booty.runtime!.idle();
        const after = [w.github.requests().length, await logLength(jobId)];
        if (after[0] === before[0] && after[1] === before[1]) return;
      }
    },
    async jobId() {
      const [job] = await booty.store.listJobs();
      return job!.jobId;
    },
    job: (jobId: string) => supervisor.whenFinished(jobId),
    /** A comment on the issue by someone with write access. */
    async writerSays(login: string, body: string) {
      w.github.setRole(OWNER, REPO, login, 'write');
      await personOn(w.github, login).rest.issues.createComment({
        owner: OWNER,
        repo: REPO,
        issue_number: w.issue,
        body,
      });
    },
  };
}

describe('the refine loop end to end', () => {
  it('a loop that stops improving stops at attempt stallAfter + 1 and asks the listed user to review the draft', async () => {
    const repoDir = sampleRepoWith('maxAttempts: 5\nstallAfter: 2\nescalate: ["@alice", "demo/reviewers"]');
    const b = await start({}, { repoDir, responder: neverBetter() });
    world!.github.setRole(OWNER, REPO, 'alice', 'write');
    await world!.label();
    const jobId = await b.jobId();
    await b.quiet(jobId);

    const job = await b.job(jobId);
    expect(job.value).toBe('prOpened');
    expect(job.context.outcome?.reason).toBe('stalled');
    expect(job.context.attempt).toBe(3);
    expect(world!.modelCalls('submit_changes')).toBe(3);
    const [pr] = world!.pulls();
    expect(pr).toMatchObject({ draft: true, requestedReviewers: ['alice'], requestedTeams: ['reviewers'] });
    expect(job.context.checkpoints.escalation).toMatchObject({
      on: 'pr',
      number: pr!.number,
      users: ['alice'],
      teams: ['demo/reviewers'],
      refused: [],
    });
    const bodies = world!.comments().map((c) => c.body);
    const asking = bodies.filter((t) => t.includes('booty gave up on this issue'));
    expect(asking).toHaveLength(1);
    // Why it gave up is the progress comment's to say: the request for help links it.
    expect(asking[0]).toMatch(/\[booty's progress comment\]\(\S+#issuecomment-\d+\)/);
    const progress = bodies.find((t) => t.includes('<!-- booty:progress'))!;
    expect(progress).toContain('| 3 |');
    expect(progress).toContain('→ no better');
    expect(progress).toContain('**Escalated:** @alice, @demo/reviewers asked to review the draft.');
    await expectReplayVerified(world!.dir, jobId, 'prOpened');
  });

  it('a plan waits for a writer: revise analyses again with the text, approve writes the change', async () => {
    const repoDir = sampleRepoWith('maxAttempts: 3\napproval: plan');
    const b = await start({}, { repoDir });
    await world!.label();
    const jobId = await b.jobId();
    await b.quiet(jobId);
    expect((await b.job(jobId)).value).toBe('awaitingApproval');
    expect(world!.modelCalls('submit_changes')).toBe(0);
    const plans = () => world!.comments().filter((c) => c.body.includes('<!-- booty:plan '));
    expect(plans()).toHaveLength(1);
    expect(plans()[0]!.body).toContain('`@booty approve`');

    await b.writerSays('maintainer', '@booty revise Also accept fractional hours like "1.5h".');
    await b.quiet(jobId);
    expect((await b.job(jobId)).value).toBe('awaitingApproval');
    expect(world!.modelCalls('submit_analysis')).toBe(2);
    const second = world!.anthropic.messages().filter((r) => r.toolName === 'submit_analysis')[1]!;
    expect(second.raw).toContain('Also accept fractional hours');
    expect(plans()).toHaveLength(2);

    // A reader's approval is answered once and changes nothing.
    await personOn(world!.github, 'passerby').rest.issues.createComment({
      owner: OWNER,
      repo: REPO,
      issue_number: world!.issue,
      body: '@booty approve',
    });
    await b.quiet(jobId);
    expect((await b.job(jobId)).value).toBe('awaitingApproval');
    expect(world!.comments().filter((c) => c.body.includes('only people with write access'))).toHaveLength(1);

    await b.writerSays('maintainer', '@booty approve');
    await b.quiet(jobId);
    const job = await b.job(jobId);
    expect(job.value).toBe('promoted');
    expect(job.context.checkpoints.approvedBy).toBe('maintainer');
    await expectReplayVerified(world!.dir, jobId, 'promoted');
    // `booty replay` tells the revision in the writer's words (cut at 60 characters).
    const replay = await cli(['replay', jobId, '--db', path.join(world!.dir, 'booty.db')]);
    expect(replay.out).toContain('@booty revise "Also accept fractional hours like "1.5h"."...');
    expect(replay.out).toContain('@booty approve from maintainer');
  });

  it('the booty:plan label asks for approval without booty.yml; @booty cancel ends the waiting job', async () => {
    const b = await start();
    await world!.github.labelIssue(OWNER, REPO, world!.issue, 'booty:plan');
    await world!.label();
    const jobId = await b.jobId();
    await b.quiet(jobId);
    expect((await b.job(jobId)).value).toBe('awaitingApproval');

    // A retry has nothing to run yet: answered with what the job waits for, and not queued.
    const logged = (await b.booty.store.readStream(jobId)).length;
    await b.writerSays('maintainer', '@booty retry');
    await b.quiet(jobId);
    expect((await b.booty.store.readStream(jobId)).length).toBe(logged);
    expect(
      world!
        .comments()
        .filter((c) => c.body.includes('`@booty retry` did nothing'))
        .map((c) => c.body),
    ).toEqual([
      expect.stringContaining(
        'did nothing: no pull request is open to run a round on yet: the job waits for `@booty approve` of its plan, or `@booty continue` at its token budget.',
      ),
    ]);

    await b.writerSays('maintainer', '@booty cancel');
    await b.quiet(jobId);
    const job = await b.job(jobId);
    expect(job.value).toBe('cancelled');
    expect(job.context.outcome?.reason).toBe('command');
    expect(world!.modelCalls('submit_changes')).toBe(0);
    expect(world!.pulls()).toEqual([]);
    await expectReplayVerified(world!.dir, jobId, 'cancelled');
  });

  it('a job at its token budget waits, says what it spent, and finishes after @booty continue', async () => {
    const b = await start({ BOOTY_MAX_TOKENS_PER_JOB: '1', BOOTY_BUDGET_STEP: '10000000' });
    await world!.label();
    const jobId = await b.jobId();
    await b.quiet(jobId);
    const parked = await b.job(jobId);
    expect(parked.value).toBe('budgetExhausted');
    const progress = () => world!.comments().find((c) => c.body.includes('<!-- booty:progress'))!.body;
    expect(progress()).toContain("of this job's 1, and stopped before analyzing the issue again");
    expect(progress()).toContain('raises the budget by 10,000,000 tokens');

    await b.writerSays('maintainer', '@booty continue');
    await b.quiet(jobId);
    const job = await b.job(jobId);
    expect(job.value).toBe('promoted');
    expect(job.context.settings.maxTokens).toBe(10_000_001);
    await expectReplayVerified(world!.dir, jobId, 'promoted');
  });

  it('a job with a $0.05 cap stops at its cap with what it spent shown, and finishes after @booty continue', async () => {
    // Opus's prices and a second attempt: the job costs more than $0.05 in all.
    const b = await start(
      { BOOTY_MAX_USD_PER_JOB: '0.05', BOOTY_MODEL: 'claude-opus-4-5' },
      { responder: demoResponder('refine') },
    );
    await world!.label();
    const jobId = await b.jobId();
    await b.quiet(jobId);
    const parked = await b.job(jobId);
    expect(parked.value).toBe('budgetExhausted');
    const spent = parked.context.usage.costUsd;
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(0.05);
    const progress = () => world!.comments().find((c) => c.body.includes('<!-- booty:progress'))!.body;
    expect(progress()).toContain('booty reached this job’s dollar budget and waits for `@booty continue`');
    expect(progress()).toContain(`booty spent $${spent.toFixed(4)}`);
    expect(progress()).toContain("of this job's $0.05, and stopped before");
    expect(progress()).toContain('raises the budget by $0.05 and resumes there');
    // Stopped before the request it could not pay for, not after.
    expect(parked.context.error?.message).toMatch(
      /^the job's budget of \$0\.05 would be exceeded \(spent \$0\.\d{4}, /,
    );
    const calls = world!.anthropic.messages().filter((m) => m.status === 200).length;

    // Each continue adds the cap again, and the job goes on from where it stopped.
    let continues = 0;
    for (; continues < 5 && (await b.job(jobId)).value === 'budgetExhausted'; ) {
      continues++;
      await b.writerSays('maintainer', '@booty continue');
      await b.quiet(jobId);
    }
    const job = await b.job(jobId);
    expect(job.value).toBe('promoted');
    expect(continues).toBeGreaterThan(0);
    expect(job.context.settings.usdAdded).toBeCloseTo(0.05 * continues, 6);
    expect(job.context.settings.maxTokens).toBeNull();
    expect(job.context.usage.costUsd).toBeLessThanOrEqual(0.05 * (continues + 1));
    expect(world!.anthropic.messages().filter((m) => m.status === 200).length).toBeGreaterThan(calls);
    await expectReplayVerified(world!.dir, jobId, 'promoted');
  });
});
