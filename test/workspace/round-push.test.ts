import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BootyError, isBootyError } from '../../src/errors.js';
import { sh, tempDir } from '../fixtures/git-fixtures.js';
import { author, roundWorld } from './round-harness.js';

// A follow-up round's push onto the PR's branch: a fast-forward of the head the round started
// from, never a push that drops someone's commit, and nothing pushed twice.

let base: string;
let world: ReturnType<typeof roundWorld>;
beforeEach(() => {
  base = tempDir();
  world = roundWorld(base);
});
afterEach(async () => {
  await world.ws.idle();
  fs.rmSync(base, { recursive: true, force: true });
});

const round = { n: 1, at: 1_700_000_500, message: 'fix: answer the review (#7)\n\nRenames the argument.' };
const reviewed = 'exports.sum = (x, y) => x + y;\n';

/** An open PR, a human's commit on it, and a round started on top with its change applied. */
async function roundOnHumanCommit() {
  const { job, first } = await world.openPr();
  const human = world.humanPush(job.branch, { 'docs/human.md': 'by hand\n' });
  const started = await world.startRound(job);
  const roundJob = await world.apply(started, [{ path: 'src/sum.js', content: reviewed }]);
  return { job: roundJob, first, human };
}

const caught = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: unknown) => err as BootyError,
  );

describe('pushRound', () => {
  it("lands the round's commit on top of a human's commit, which stays on the branch", async () => {
    const { job, first, human } = await roundOnHumanCommit();
    expect(job.workspace!.baseSha).toBe(human);

    const out = await world.ws.pushRound(job, round, world.signal);

    expect(out).toEqual({ commit: out.commit, headSha: out.commit, rebased: false });
    expect(world.remote.branchSha(job.branch)).toBe(out.commit);
    expect(world.log(job.branch)).toEqual([out.commit, human, first, world.remote.head]);
    expect(sh(world.remote.bare, 'log', '-1', '--format=%an <%ae> %at%n%cn <%ce> %ct%n%B', out.commit)).toBe(
      [
        `${author.name} <${author.email}> 1700000500`,
        `${author.name} <${author.email}> 1700000500`,
        'fix: answer the review (#7)',
        '',
        'Renames the argument.',
        '',
        'Booty-Job: job-1',
        'Booty-Round: 1',
      ].join('\n'),
    );
    expect(sh(world.remote.bare, 'diff', '--name-status', human, out.commit)).toBe('M\tsrc/sum.js');
    expect(sh(world.remote.bare, 'show', `${out.commit}:src/sum.js`)).toBe(reviewed.trimEnd());
    expect(sh(world.remote.bare, 'show', `${out.commit}:docs/human.md`)).toBe('by hand');
  });

  it('returns the same commit when run again after a crash, and pushes nothing', async () => {
    const { job } = await roundOnHumanCommit();
    const out = await world.ws.pushRound(job, round, world.signal);
    const refs = world.refs();

    expect(await world.ws.pushRound(job, round, world.signal)).toEqual(out);
    expect(world.refs()).toBe(refs);

    // On a new machine, with neither the clone nor the mirror.
    await world.ws.idle();
    for (const dir of ['jobs', 'mirrors', 'spares'])
      fs.rmSync(path.join(world.root, dir), { recursive: true });
    expect(await world.ws.pushRound(job, round, world.signal)).toEqual(out);
    expect(world.refs()).toBe(refs);
  });

  it("finds its earlier push under a human's newer commit: the branch keeps the human's tip", async () => {
    const { job } = await roundOnHumanCommit();
    const out = await world.ws.pushRound(job, round, world.signal);
    const later = world.humanPush(job.branch, { 'src/sum.js': 'exports.sum = () => 0;\n' });
    const refs = world.refs();

    expect(await world.ws.pushRound(job, round, world.signal)).toEqual({
      commit: out.commit,
      headSha: later,
      rebased: false,
    });
    expect(world.refs()).toBe(refs);
  });

  it('rebuilds the change on a tip pushed meanwhile when it touched other files, keeping both', async () => {
    const { job, human } = await roundOnHumanCommit();
    const meanwhile = world.humanPush(job.branch, { 'docs/other.md': 'other\n', 'README.md': null });

    const out = await world.ws.pushRound(job, round, world.signal);

    expect(out).toEqual({ commit: out.commit, headSha: out.commit, rebased: true });
    expect(world.remote.branchSha(job.branch)).toBe(out.commit);
    expect(world.log(job.branch).slice(0, 3)).toEqual([out.commit, meanwhile, human]);
    expect(sh(world.remote.bare, 'diff', '--name-status', meanwhile, out.commit)).toBe('M\tsrc/sum.js');
    expect(sh(world.remote.bare, 'show', `${out.commit}:docs/other.md`)).toBe('other');
    expect(sh(world.remote.bare, 'log', '-1', '--format=%at %(trailers:only,unfold)', out.commit)).toBe(
      '1700000500 Booty-Job: job-1\nBooty-Round: 1',
    );
    // Run again, it is found on the branch rather than made a third time.
    expect(await world.ws.pushRound(job, round, world.signal)).toEqual(out);
  });

  it('stops with BOOTY_E_HEAD_MOVED when a push meanwhile touched the same file, leaving the branch alone', async () => {
    const { job } = await roundOnHumanCommit();
    const meanwhile = world.humanPush(job.branch, { 'src/sum.js': 'exports.sum = (a, b) => b + a;\n' });
    const refs = world.refs();

    const err = await caught(world.ws.pushRound(job, round, world.signal));

    expect(isBootyError(err, 'BOOTY_E_HEAD_MOVED')).toBe(true);
    expect(err.params).toEqual({ branch: job.branch, sha: meanwhile, paths: 'src/sum.js' });
    expect(err.retryable).toBe(false);
    expect(err.message).toBe(
      `branch ${job.branch} moved under booty (now at ${meanwhile}) and the new commits touch files this round changed (src/sum.js); the round starts again from the new head`,
    );
    expect(world.refs()).toBe(refs);
  });

  it('counts a file inside a directory someone replaced as touched', async () => {
    const { job } = await world.openPr();
    const started = await world.startRound(job);
    const roundJob = await world.apply(started, [{ path: 'docs/guide/intro.md', content: 'intro\n' }]);
    world.humanPush(job.branch, { docs: 'a file where the directory would go\n' });
    const err = await caught(world.ws.pushRound(roundJob, round, world.signal));
    expect(isBootyError(err, 'BOOTY_E_HEAD_MOVED')).toBe(true);
    expect(err.params.paths).toBe('docs/guide/intro.md');
  });

  it('refuses a round whose changes leave the tree as it was', async () => {
    const { job } = await world.openPr();
    const started = await world.startRound(job);
    const same = {
      ...started,
      changes: [{ path: 'src/sum.js', content: 'exports.sum = (a, b) => a + b;\n' }],
    };
    const refs = world.refs();
    const err = await caught(world.ws.pushRound(same, round, world.signal));
    expect(isBootyError(err, 'BOOTY_E_GIT_FAILED')).toBe(true);
    expect(err.message).toBe('git commit failed: the logged changes leave the tree as it was');
    expect(world.refs()).toBe(refs);
  });

  it('says the branch is missing when it was deleted while booty worked', async () => {
    const { job } = await roundOnHumanCommit();
    sh(world.remote.bare, 'update-ref', '-d', `refs/heads/${job.branch}`);
    const err = await caught(world.ws.pushRound(job, round, world.signal));
    expect(isBootyError(err, 'BOOTY_E_BRANCH_MISSING')).toBe(true);
    expect(sh(world.remote.bare, 'for-each-ref', '--format=%(refname)')).toBe('refs/heads/main');
  });

  it('pushes only to booty/ branches', async () => {
    const { job } = await roundOnHumanCommit();
    const refs = world.refs();
    const err = await caught(world.ws.pushRound({ ...job, branch: 'main' }, round, world.signal));
    expect(isBootyError(err, 'BOOTY_E_GIT_FAILED')).toBe(true);
    expect(err.message).toBe('git push failed: refusing to push main: not a booty/ branch');
    expect(world.refs()).toBe(refs);
  });
});

describe('commitAndPush after a round', () => {
  it("never replaces a branch holding a human's commit, even under booty's own tip", async () => {
    const { job, first } = await roundOnHumanCommit();
    await world.ws.pushRound(job, round, world.signal);
    const refs = world.refs();
    // The first push run again, as a machine that lost track of the rounds would.
    const firstJob = {
      ...job,
      workspace: { ...job.workspace!, baseSha: world.remote.head },
      changes: [{ path: 'src/sum.js', content: 'exports.sum = (a, b) => a + b;\n' }],
    };
    expect(sh(world.remote.bare, 'rev-parse', `${first}^`)).toBe(world.remote.head);
    const err = await caught(world.ws.commitAndPush({ job: firstJob }));
    expect(isBootyError(err, 'BOOTY_E_BRANCH_FOREIGN')).toBe(true);
    expect(world.refs()).toBe(refs);
  });
});
