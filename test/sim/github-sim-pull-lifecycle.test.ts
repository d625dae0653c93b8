import { afterEach, describe, expect, it } from 'vitest';
import { bareDir } from '../../sim/github/github-sim-git.js';
import { branchShas } from '../../sim/github/github-sim-git-objects.js';
import { pushFiles } from '../support/git-push.js';
import { ADD_JS, BRANCH, OWNER, prWorld, REPO } from './pr-world.js';

// A PR's life on the simulated GitHub: draft and ready through GraphQL, a push to its head over
// HTTP, closing, reopening and merging, each with the `pull_request` webhook GitHub sends.

type World = Awaited<ReturnType<typeof prWorld>>;
let world: World | null = null;
afterEach(async () => {
  if (world) expect(world.sim.problems()).toEqual([]);
  await world?.close();
  world = null;
});

const graphql = async (w: World, query: string, variables: Record<string, unknown>) =>
  (await w.booty.graphql(query, variables)) as Record<string, any>;

const TO_DRAFT = `mutation($id: ID!) { convertPullRequestToDraft(input: { pullRequestId: $id }) {
  pullRequest { isDraft number } } }`;
const TO_READY = `mutation($id: ID!) { markPullRequestReadyForReview(input: { pullRequestId: $id }) {
  pullRequest { isDraft number } } }`;

describe('a PR’s life', () => {
  it('moves between draft and ready through GraphQL, with converted_to_draft and ready_for_review', async () => {
    world = await prWorld();
    const { sim, hooks, where } = world;
    const pr = await world.openPr();
    hooks.clear();

    const drafted = await graphql(world, TO_DRAFT, { id: pr.nodeId });
    expect(drafted.convertPullRequestToDraft.pullRequest).toEqual({ isDraft: true, number: pr.number });
    const { data } = await world.booty.rest.pulls.get({ ...where, pull_number: pr.number });
    expect([data.draft, data.mergeable_state]).toEqual([true, 'draft']);
    // Converting a draft again changes nothing and sends nothing.
    await graphql(world, TO_DRAFT, { id: pr.nodeId });
    const ready = await graphql(world, TO_READY, { id: pr.nodeId });
    expect(ready.markPullRequestReadyForReview.pullRequest.isDraft).toBe(false);

    await sim.settled();
    expect(hooks.names()).toEqual(['pull_request.converted_to_draft', 'pull_request.ready_for_review']);
    expect(
      hooks.received.map((r) => [r.payload.number, r.payload.pull_request.draft, r.payload.sender.login]),
    ).toEqual([
      [pr.number, true, 'booty-bot'],
      [pr.number, false, 'booty-bot'],
    ]);
    expect(
      sim
        .requests()
        .filter((r) => r.operation === 'graphql')
        .map((r) => r.status),
    ).toEqual([200, 200, 200]);
  });

  it('synchronizes on a push to its head over HTTP, with the push’s before and after', async () => {
    world = await prWorld();
    const { sim, hooks, where } = world;
    const pr = await world.openPr();
    hooks.clear();

    const after = await pushFiles(`${sim.url}/${OWNER}/${REPO}.git`, sim.tokenFor('booty-bot'), BRANCH, {
      'test/add.test.js': 'import { add } from "../add.js";\n',
    });
    await sim.settled();

    expect(hooks.names()).toEqual(['pull_request.synchronize']);
    expect(hooks.received[0]!.payload).toMatchObject({
      action: 'synchronize',
      number: pr.number,
      before: pr.sha,
      after,
      pull_request: { head: { sha: after }, commits: 2, changed_files: 2 },
      sender: { login: 'booty-bot' },
    });
    const { data } = await world.booty.rest.pulls.get({ ...where, pull_number: pr.number });
    expect([data.head.sha, data.commits, data.additions]).toEqual([after, 2, 2]);
  });

  it('closes and reopens through REST, and merges through REST and as a person, moving the base branch', async () => {
    world = await prWorld();
    const { sim, hooks, where, booty } = world;
    const pr = await world.openPr();
    hooks.clear();

    await booty.rest.pulls.update({ ...where, pull_number: pr.number, state: 'closed' });
    await booty.rest.pulls.update({ ...where, pull_number: pr.number, state: 'open' });
    sim.setRole(OWNER, REPO, 'alice', 'maintain');
    const merged = await world.person('alice').rest.pulls.merge({ ...where, pull_number: pr.number });
    await sim.settled();

    expect(merged.data).toMatchObject({ merged: true, message: 'Pull Request successfully merged' });
    const main = (await branchShas(bareDir(sim.dir, OWNER, REPO), ['main'])).get('main');
    expect(merged.data.sha).toBe(main);
    expect(hooks.names()).toEqual(['pull_request.closed', 'pull_request.reopened', 'pull_request.closed']);
    expect(hooks.received.map((r) => [r.payload.pull_request.merged, r.payload.pull_request.state])).toEqual([
      [false, 'closed'],
      [false, 'open'],
      [true, 'closed'],
    ]);
    expect(hooks.received[2]!.payload.pull_request).toMatchObject({
      merge_commit_sha: main,
      merged_by: { login: 'alice' },
    });
    const again = await booty.rest.pulls.merge({ ...where, pull_number: pr.number }).catch((e) => e.status);
    expect(again).toBe(405);

    // A second PR, merged by a person on the web page (a squash), and one closed unmerged.
    const second = await sim.pushCommit(OWNER, REPO, { branch: 'feature', files: { 'b.js': 'b\n' } });
    const { data: pr2 } = await booty.rest.pulls.create({
      ...where,
      head: 'feature',
      base: 'main',
      title: 'B',
    });
    hooks.clear();
    const squashed = await sim.mergePull(OWNER, REPO, pr2.number, { sender: 'alice', method: 'squash' });
    expect(squashed).not.toBe(second);
    expect((await branchShas(bareDir(sim.dir, OWNER, REPO), ['main'])).get('main')).toBe(squashed);
    expect(hooks.names()).toEqual(['pull_request.opened', 'pull_request.closed']);
    expect(hooks.of('pull_request', 'closed')[0]!.payload.pull_request).toMatchObject({
      merged: true,
      title: 'B',
      merge_commit_sha: squashed,
    });
  });

  it('sends pull_request.opened when a PR is opened, and edited for a new title', async () => {
    world = await prWorld();
    const { hooks, where, booty, sim } = world;
    const pr = await world.openPr();
    expect(hooks.of('pull_request', 'opened')[0]!.payload).toMatchObject({
      number: pr.number,
      pull_request: {
        title: 'Add add()',
        head: { ref: BRANCH, sha: pr.sha },
        base: { ref: 'main' },
        draft: false,
      },
      sender: { login: 'booty-bot' },
    });
    await booty.rest.pulls.update({ ...where, pull_number: pr.number, title: 'Add add(), negatives too' });
    await sim.settled();
    expect(hooks.of('pull_request', 'edited')[0]!.payload).toMatchObject({
      changes: { title: { from: 'Add add()' } },
      pull_request: { title: 'Add add(), negatives too' },
    });
  });
  it("holds a fork's PR: its head in the fork, where a maintainer pushes only to that branch and only while its author allows it", async () => {
    world = await prWorld();
    const { sim, hooks, where } = world;
    const fork = await sim.forkRepo(OWNER, REPO, 'forker');
    const forkUrl = `${sim.url}/forker/${REPO}.git`;
    const theirs = await pushFiles(forkUrl, sim.tokenFor('forker'), 'feature', { 'add.js': ADD_JS });
    const { data: pr } = await world.person('forker').rest.pulls.create({
      ...where,
      head: 'forker:feature',
      base: 'main',
      title: 'Add add()',
      maintainer_can_modify: true,
    });
    expect(pr).toMatchObject({
      maintainer_can_modify: true,
      commits: 1,
      head: {
        ref: 'feature',
        sha: theirs,
        label: 'forker:feature',
        repo: { full_name: `forker/${REPO}`, fork: true },
      },
      base: { repo: { full_name: `${OWNER}/${REPO}` } },
    });
    await sim.settled();
    hooks.clear();

    const token = sim.tokenFor('booty-bot');
    const ours = await pushFiles(forkUrl, token, 'feature', { 'add.test.js': 'ok\n' });
    await sim.settled();
    expect(hooks.names()).toEqual(['pull_request.synchronize']);
    expect(hooks.received[0]!.payload).toMatchObject({ number: pr.number, before: theirs, after: ours });
    // Another branch of the fork is not the pull request's.
    const elsewhere = await pushFiles(forkUrl, token, 'other', { 'x.js': '\n' }).catch(
      (e: Error) => e.message,
    );
    expect(elsewhere).toContain('is not the head of a pull request that allows edits by maintainers');
    // The author unticks the box: the fork is closed to the maintainer.
    sim.allowMaintainerEdits(OWNER, REPO, pr.number, false);
    const refused = await pushFiles(forkUrl, token, 'feature', { 'y.js': '\n' }).catch(
      (e: Error) => e.message,
    );
    expect(refused).toContain(`Permission to forker/${REPO}.git denied to booty-bot`);
    expect([...(await branchShas(fork.bareDir)).entries()]).toEqual([
      ['feature', ours],
      ['main', (await branchShas(bareDir(sim.dir, OWNER, REPO))).get('main')],
    ]);
    expect([...(await branchShas(bareDir(sim.dir, OWNER, REPO))).keys()]).toEqual(['main']);
  });
});
