import { afterEach, describe, expect, it } from 'vitest';
import type { RepoConfig } from '../../../src/events/effect-results.js';
import { JobRequested } from '../../../src/events/job-events.js';
import { createGitHubClients } from '../../../src/forges/github/clients.js';
import { escalate, postPlan } from '../../../src/forges/github/loop-checkpoints.js';
import { type EffectInput, initialContext, jobView } from '../../../src/machines/job-context.js';
import { OWNER, prWorld, REPO } from '../../sim/pr-world.js';
import { sampleRequest } from '../../support/job-harness.js';

// The loop's effects on the simulated GitHub, over real HTTP, every reply held to GitHub's OpenAPI
// description: the plan posted once per plan, and escalation (reviewers on the draft, or the issue
// assigned), each run twice to show a re-run after a crash asks nobody twice.

type World = Awaited<ReturnType<typeof prWorld>>;
let world: World | null = null;
afterEach(async () => {
  if (world) expect(world.sim.problems()).toEqual([]);
  await world?.close();
  world = null;
});

async function setUp() {
  world = await prWorld();
  const issue = world.sim.createIssue(OWNER, REPO, { title: 'Add add()', author: 'octocat' });
  const clients = createGitHubClients({
    apiUrl: world.sim.url,
    auth: { kind: 'token', token: world.sim.tokenFor('booty-bot') },
    paced: false,
  });
  return { world, issue, clients };
}

function input(
  issue: number,
  change: Partial<ReturnType<typeof jobView>>,
  step: EffectInput['step'] = 'escalate',
): EffectInput {
  const state = initialContext(
    JobRequested.parse({
      ...sampleRequest(issue),
      type: 'JobRequested',
      jobId: 'job-1',
      deliveryId: 'd-1',
      requestedAt: 0,
      settings: {},
    }),
  );
  return { key: `job-1:${step}:3`, step, attempt: 3, notBefore: null, job: { ...jobView(state), ...change } };
}

const config = (escalate: string[]): RepoConfig => ({
  source: 'file' as const,
  path: '.github/booty.yml',
  test: { command: 'npm test' },
  install: null,
  timeoutSeconds: 60,
  maxAttempts: 3,
  protectedPaths: [],
  sandbox: null,
  escalate,
});

const outcome = {
  reason: 'stalled' as const,
  message: '2 attempts in a row brought no improvement, so booty stopped early.',
};

describe('escalation on the simulated GitHub', () => {
  it('requests the collaborators’ and teams’ review on the draft; a non-collaborator is refused, not fatal', async () => {
    const { world, issue, clients } = await setUp();
    const pr = await world.openPr();
    world.sim.setRole(OWNER, REPO, 'alice', 'write');
    const job = {
      pr: {
        at: 0,
        number: pr.number,
        url: '',
        nodeId: pr.nodeId,
        draft: true,
        headSha: pr.sha,
        created: true,
      },
      config: config(['alice', 'mallory', 'acme/reviewers']),
      outcome,
    };
    const { data: progress } = await world.booty.rest.issues.createComment({
      ...world.where,
      issue_number: issue.number,
      body: '<!-- booty:progress job=job-1 -->\nbooty opened a draft pull request; its tests do not pass yet',
    });
    const run = escalate({ clients });
    const first = await run(input(issue.number, job));
    expect(first).toEqual({
      on: 'pr',
      number: pr.number,
      users: ['alice'],
      teams: ['acme/reviewers'],
      refused: [{ name: 'mallory', reason: expect.stringContaining('not a collaborator') }],
    });
    const again = await run(input(issue.number, job));
    expect(again.users).toEqual(['alice']);

    const { data: requested } = await world.booty.rest.pulls.listRequestedReviewers({
      ...world.where,
      pull_number: pr.number,
    });
    expect(requested.users.map((u) => u.login)).toEqual(['alice']);
    expect(requested.teams.map((t) => t.slug)).toEqual(['reviewers']);
    const comments = (
      await world.booty.rest.issues.listComments({ ...world.where, issue_number: issue.number })
    ).data;
    expect(comments).toHaveLength(2);
    const asking = comments[1]!.body!;
    expect(asking).toContain('@alice, @acme/reviewers: booty gave up on this issue');
    // Why it gave up is the progress comment's to say: linked, not repeated.
    expect(asking).toContain(`[booty's progress comment](${progress.html_url})`);
    expect(asking).not.toContain(outcome.message);
  });

  it('assigns the issue when there is no PR, names teams in the comment, and notes who could not be assigned', async () => {
    const { world, issue, clients } = await setUp();
    world.sim.setRole(OWNER, REPO, 'alice', 'write');
    const job = { config: config(['alice', 'mallory', 'acme/reviewers']), outcome };
    const result = await escalate({ clients })(input(issue.number, job));
    expect(result).toMatchObject({
      on: 'issue',
      number: issue.number,
      users: ['alice'],
      teams: ['acme/reviewers'],
      refused: [{ name: 'mallory' }],
    });
    const { data } = await world.booty.rest.issues.get({ ...world.where, issue_number: issue.number });
    expect(data.assignees?.map((a) => a.login)).toEqual(['alice']);
  });
});

describe('the plan on the simulated GitHub', () => {
  it('is posted once per plan: a re-run finds it, a revision posts the next', async () => {
    const { issue, clients, world } = await setUp();
    const analysis = {
      summary: 'Add add(a, b) to index.js',
      changeKind: 'feat' as const,
      filesToRead: [],
      filesToChange: ['index.js'],
      testsToAdd: ['test/add.test.js'],
      acceptanceCriteria: ['add(1, 2) is 3'],
      risks: [],
    };
    const post = postPlan({ clients });
    const at = (plans: number) =>
      input(
        issue.number,
        { analysis, checkpoints: { plans, approvedBy: null, escalation: null } },
        'postPlan',
      );
    const first = await post(at(0));
    expect(await post(at(0))).toEqual(first);
    await post(at(1));
    const comments = (
      await world.booty.rest.issues.listComments({ ...world.where, issue_number: issue.number })
    ).data;
    expect(comments).toHaveLength(2);
    expect(comments[0]!.id).toBe(first.commentId);
    expect(comments[0]!.body).toContain('**Plan (feat):** Add add(a, b) to index.js');
    expect(comments[0]!.body).toContain('`@booty approve`');
  });
});
