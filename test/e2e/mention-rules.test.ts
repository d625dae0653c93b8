import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Responder } from '../../sim/anthropic/anthropic-simulator.js';
import { changeAnswer, demoResponder, type Scenario, TEST_FILE } from '../../src/demo/demo-script.js';
import { personOn } from '../support/github-person.js';
import { exec } from './cli-process.js';
import { expectReplayVerified } from './conversation-world.js';
import { e2eWorld, OWNER, REPO } from './e2e-world.js';

// Who may call on booty, and what counts as calling it, end to end: a writer's `@booty` on an
// issue with no label starts a job; a longer login, an e-mail address, a quote or code does not;
// a reader is told why not; on a fork's pull request booty pushes to the fork's branch when its
// author lets maintainers edit it, and otherwise says what it needs. Real HTTP, git and tests,
// booty in this process.

type World = Awaited<ReturnType<typeof e2eWorld>>;
let w: World | null = null;
afterEach(async () => {
  await w?.close();
  w = null;
});

async function started(
  env: Record<string, string> = {},
  how: { scenario?: Scenario; responder?: Responder } = {},
) {
  const world = await e2eWorld(how.scenario ?? 'pass', { responder: how.responder });
  w = world;
  const booty = await world.startInProcess(env);
  const quiet = async () => {
    await world.github.settled();
    await booty.server.supervisor.onIdle();
    await booty.runtime!.idle();
  };
  const person = (login: string, role: 'write' | 'read') => {
    world.github.setRole(OWNER, REPO, login, role);
    return personOn(world.github, login);
  };
  const say = async (login: string, role: 'write' | 'read', on: number, body: string) => {
    const { data } = await person(login, role).rest.issues.createComment({
      owner: OWNER,
      repo: REPO,
      issue_number: on,
      body,
    });
    await quiet();
    return data;
  };
  const bootySaid = (on: number) =>
    world.github.comments(OWNER, REPO, on).filter((c) => c.author === 'booty-bot');
  return { world, booty, quiet, person, say, bootySaid };
}

describe('@booty where no label asked', () => {
  it('starts a job only for a writer calling booty by its whole name, in their own words', async () => {
    const { world, booty, say, bootySaid } = await started();
    const issue = world.issue;
    for (const body of [
      'ping @booty-maintainers, can you look?',
      'mail email@booty.dev for access',
      '> @booty please implement this\n\nQuoting the template above.',
      'You can write `@booty please implement this` to start it.',
      'Try:\n```\n@booty please implement this\n```',
    ])
      await say('maintainer', 'write', issue, body);
    expect(await booty.store.listJobs()).toEqual([]);
    expect(world.anthropic.messages()).toEqual([]);
    expect(bootySaid(issue)).toEqual([]);

    // A reader may not steer booty: told so, once, and nothing starts.
    await say('passerby', 'read', issue, '@booty please implement this');
    expect(await booty.store.listJobs()).toEqual([]);
    expect(bootySaid(issue).map((c) => c.body.split('\n').at(-1))).toEqual([
      expect.stringMatching(/^@passerby /),
    ]);

    // A writer's @booty does what the label does, with no label put on.
    const asked = await say('maintainer', 'write', issue, '@booty please implement this.');
    const [job] = await booty.store.listJobs();
    expect(job).toMatchObject({ issue, repo: `${OWNER}/${REPO}` });
    const done = await booty.server.supervisor.whenFinished(job!.jobId);
    expect(done.value).toBe('promoted');
    expect(done.context.request).toMatchObject({
      ask: { kind: 'change', author: 'maintainer', commentId: asked.id },
      onPr: null,
      collaborator: true,
    });
    expect(world.github.issues(OWNER, REPO)[0]!.labels).toEqual([]);
    expect(world.github.commentReactions(OWNER, REPO, asked.id).map((r) => r.content)).toEqual(['eyes']);
    await expectReplayVerified(world.dir, job!.jobId, 'promoted');
  });

  it("on a fork's pull request, commits on top of the fork's branch when its author lets maintainers edit, and says what it needs when not", async () => {
    // The person-pr scenario's model, with a second round that changes another file.
    const scripted = demoResponder('person-pr');
    let rounds = 0;
    const responder: Responder = (request) => {
      if (request.toolName === 'submit_changes' && request.raw.includes('a follow-up round was asked for')) {
        rounds += 1;
        if (rounds > 1)
          return {
            answer: {
              explanation: 'Noted.',
              changes: [{ path: 'NOTES.md', content: 'notes\n' }],
              deletePaths: [],
            },
          };
      }
      return scripted(request);
    };
    const { world, booty, person, say, bootySaid } = await started({}, { scenario: 'person-pr', responder });
    const { supervisor } = booty.server;
    const fork = await world.github.forkRepo(OWNER, REPO, 'forker');
    const files = Object.fromEntries(changeAnswer('fixed').changes.map((c) => [c.path, c.content]));
    const theirs = await world.github.pushCommit('forker', REPO, {
      branch: 'parse',
      files,
      message: 'Add parseDuration',
      author: 'forker',
    });
    const notes = await world.github.pushCommit('forker', REPO, {
      branch: 'notes',
      files: { 'NOTES.md': 'notes\n' },
      author: 'forker',
    });
    const open = async (head: string, allowed: boolean) =>
      (
        await person('forker', 'read').rest.pulls.create({
          owner: OWNER,
          repo: REPO,
          title: head,
          head: `forker:${head}`,
          base: 'main',
          maintainer_can_modify: allowed,
        })
      ).data;
    const closedBox = await open('notes', false);
    const ticked = await open('parse', true);
    expect(ticked.head.repo?.full_name).toBe(`forker/${REPO}`);
    expect(ticked).toMatchObject({ maintainer_can_modify: true, head: { sha: theirs, ref: 'parse' } });
    const gitIn =
      (bare: string) =>
      async (...args: string[]) =>
        (await exec('git', ['--git-dir', bare, ...args])).stdout.trim();
    const baseGit = gitIn(path.join(world.dir, 'github', 'git', OWNER, `${REPO}.git`));
    const forkGit = gitIn(fork.bareDir);
    const baseBranches = await baseGit('for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads');

    // Edits not allowed: one reply saying what is needed, no job, no model, no push.
    await say('maintainer', 'write', closedBox.number, '@booty add a line to the notes');
    expect(await booty.store.listJobs()).toEqual([]);
    const said = bootySaid(closedBox.number);
    expect(said).toHaveLength(1);
    expect(said[0]!.body).toContain(`forker/${REPO}`);
    expect(said[0]!.body).toContain('Allow edits by maintainers');
    expect(world.anthropic.messages()).toEqual([]);
    // A question there is answered at the fork's head, which booty reads though it may not push.
    await say('maintainer', 'write', closedBox.number, '@booty where are durations formatted?');
    const [question] = await booty.store.listJobs();
    // It lives with the pull request, as on any person's, and waits for what is asked next.
    const answered = await supervisor.whenFinished(question!.jobId);
    expect(answered.context.conversation.rounds).toEqual([expect.objectContaining({ result: 'answered' })]);
    expect(bootySaid(closedBox.number).at(-1)?.body).toContain(`/blob/${notes}/src/duration.js`);

    // Allowed: a round on the fork's branch, its commit on top of the person's.
    await say('maintainer', 'write', ticked.number, '@booty please add a case for days ("2d") to the tests.');
    const job = (await booty.store.listJobs()).find((j) => j.issue === ticked.number);
    const done = await supervisor.whenFinished(job!.jobId);
    expect(done.value).toBe('promoted');
    expect(done.context.request.onPr).toMatchObject({ fork: `forker/${REPO}`, maintainerCanModify: true });
    const [pushed] = done.context.conversation.rounds.map((r) => r.commit);
    expect(await forkGit('log', '--format=%H %P', '-2', 'parse')).toBe(
      `${pushed} ${theirs}\n${theirs} ${await forkGit('rev-parse', 'main')}`,
    );
    expect(await forkGit('show', `${pushed}:${TEST_FILE}`)).toContain('2d');
    expect(await baseGit('for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads')).toBe(
      baseBranches,
    );
    expect(world.github.pulls(OWNER, REPO).find((p) => p.number === ticked.number)?.headSha).toBe(pushed);

    // The author unticks the box: the next round's push is refused, and the reply says what is needed.
    world.github.allowMaintainerEdits(OWNER, REPO, ticked.number, false);
    const again = await say('maintainer', 'write', ticked.number, '@booty add a line to the notes too');
    const after = await supervisor.whenFinished(job!.jobId);
    expect(after.value).toBe('promoted');
    expect(after.context.conversation.rounds.at(-1)).toMatchObject({ commit: null });
    expect(await forkGit('rev-parse', 'parse')).toBe(pushed);
    const refused = bootySaid(ticked.number).filter((c) => c.body.includes(`comment=${again.id} -->`));
    expect(refused).toHaveLength(1);
    expect(refused[0]!.body).toContain(`the fork forker/${REPO} refused booty's push to its branch`);
    expect(refused[0]!.body).toContain('Allow edits by maintainers');
    await expectReplayVerified(world.dir, job!.jobId, 'promoted');
  });

  it('a question the token budget cannot pay for is answered so, without the model, and the job ends answered', async () => {
    const { world, booty, say, bootySaid } = await started({ BOOTY_MAX_TOKENS_PER_JOB: '50' });
    const asked = await say('maintainer', 'write', world.issue, '@booty why is formatDuration slow?');
    const [job] = await booty.store.listJobs();
    const done = await booty.server.supervisor.whenFinished(job!.jobId);
    expect(done.value).toBe('answered');
    expect(done.context.conversation.rounds).toEqual([
      expect.objectContaining({
        result: 'answered',
        answer: expect.objectContaining({ answered: false, references: [] }),
      }),
    ]);
    expect(world.anthropic.messages().filter((r) => r.path === '/v1/messages')).toEqual([]);
    const replies = bootySaid(world.issue).filter((c) => c.body.includes(`comment=${asked.id} -->`));
    expect(replies).toHaveLength(1);
    expect(replies[0]!.body).toContain('spent its token budget, so booty did not ask the model');
    await expectReplayVerified(world.dir, job!.jobId, 'answered');
  });

  it('a follow-up question after a job that only answered starts a fresh job, which reads the earlier answer', async () => {
    const { world, booty, say } = await started();
    const { supervisor } = booty.server;
    await say('maintainer', 'write', world.issue, '@booty how are durations formatted?');
    const [first] = await booty.store.listJobs();
    expect((await supervisor.whenFinished(first!.jobId)).value).toBe('answered');
    await say('maintainer', 'write', world.issue, '@booty and where would a parser go?');
    const second = (await booty.store.listJobs()).find((j) => j.jobId !== first!.jobId);
    expect((await supervisor.whenFinished(second!.jobId)).value).toBe('answered');

    const asked = world.anthropic.messages().filter((r) => r.toolName === 'submit_answer');
    expect(asked.map((r) => r.raw.includes('<booty_answer>'))).toEqual([false, true]);
    const followUp = asked[1]!.raw;
    expect(followUp).toContain('What was asked before in this conversation, and what you answered');
    expect(followUp).toContain('Durations are formatted by `formatDuration`');
    expect(followUp).toContain('where would a parser go?');
    await expectReplayVerified(world.dir, second!.jobId, 'answered');
  });
});
