import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isBootyError } from '../../src/errors.js';
import type { JobContext } from '../../src/machines/job-context.js';
import { sh, tempDir } from '../fixtures/git-fixtures.js';
import { roundWorld } from './round-harness.js';

// A follow-up round's start: the PR branch's head as the remote has it, humans' commits included,
// and a job clone that can stand at that head, even one rebuilt on a new machine.

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

const read = (dir: string, file: string) => fs.readFileSync(path.join(dir, file), 'utf8');
const roundChange = { path: 'src/sum.js', content: 'exports.sum = (x, y) => x + y;\n' };

/** The commit is on the PR's branch only, not on the default branch. */
const onBranchOnly = (sha: string) =>
  sh(world.remote.bare, 'branch', '--contains', sha, '--format=%(refname:short)').split('\n');

describe('syncRound', () => {
  it("returns the branch's head with a human's commit, which the job's clone then stands at", async () => {
    const { job } = await world.openPr();
    const human = world.humanPush(job.branch, { 'docs/human.md': 'by hand\n' });

    expect(await world.ws.syncRound(job, world.signal)).toEqual({ headSha: human });
    const dir = world.jobDir(job);
    expect(sh(dir, 'cat-file', '-t', human)).toBe('commit');
    expect(sh(dir, 'rev-parse', `refs/remotes/origin/${job.branch}`)).toBe(human);

    // The machine moves the base to the head; the workspace's tree follows.
    const started: JobContext = { ...job, workspace: { ...job.workspace!, baseSha: human }, changes: [] };
    expect(await world.ws.treeForRun(started)).toBe(dir);
    expect(sh(dir, 'rev-parse', 'HEAD')).toBe(human);
    expect(sh(dir, 'status', '--porcelain')).toBe('');
    expect(read(dir, 'docs/human.md')).toBe('by hand\n');

    const changed = await world.apply(started, [roundChange]);
    expect(sh(dir, 'status', '--porcelain')).toBe('M src/sum.js');
    expect(read(dir, 'src/sum.js')).toBe(roundChange.content);
    expect(changed.changes).toEqual([roundChange]);
  });

  it('moves the tree to the new head when neither round logged a change', async () => {
    const { job } = await world.openPr();
    const first = await world.startRound(job);
    await world.apply(first, []); // the tree is known clean at the first round's base
    const human = world.humanPush(job.branch, { 'docs/human.md': 'by hand\n' });
    const second = await world.startRound(first);
    expect(second.workspace!.baseSha).toBe(human);

    await world.apply(second, []);
    const dir = world.jobDir(job);
    expect(sh(dir, 'rev-parse', 'HEAD')).toBe(human);
    expect(read(dir, 'docs/human.md')).toBe('by hand\n');
  });

  it('makes a lost clone again at the head, with no changes', async () => {
    const { job } = await world.openPr();
    const human = world.humanPush(job.branch, { 'docs/human.md': 'by hand\n' });
    const dir = world.jobDir(job);
    fs.rmSync(dir, { recursive: true });

    expect(await world.ws.syncRound(job, world.signal)).toEqual({ headSha: human });
    expect(sh(dir, 'rev-parse', 'HEAD')).toBe(human);
    expect(sh(dir, 'symbolic-ref', '--short', 'HEAD')).toBe(job.branch);
    expect(sh(dir, 'status', '--porcelain')).toBe('');
  });

  it('says the branch is missing when the remote has none', async () => {
    const { job } = await world.openPr();
    sh(world.remote.bare, 'update-ref', '-d', `refs/heads/${job.branch}`);
    const err = await world.ws.syncRound(job, world.signal).catch((e: unknown) => e);
    expect(isBootyError(err, 'BOOTY_E_BRANCH_MISSING')).toBe(true);
    expect((err as Error).message).toBe(
      `branch ${job.branch} is not on the remote (deleted, or never pushed): there is no pull request head to build on`,
    );
  });
});

describe('a lost clone in a round', () => {
  it.each([
    ['from a spare', ['jobs']],
    ['from the mirror alone', ['jobs', 'spares']],
    ['on a new machine', ['jobs', 'spares', 'mirrors']],
  ])('is rebuilt %s at a commit only the PR branch has, with the round changes on top', async (_, lost) => {
    const { job } = await world.openPr();
    const human = world.humanPush(job.branch, { 'docs/human.md': 'by hand\n' });
    const started = await world.startRound(job);
    const changed = await world.apply(started, [roundChange]);
    const dir = world.jobDir(job);
    const status = sh(dir, 'status', '--porcelain');
    expect(onBranchOnly(human)).toEqual([job.branch]);

    await world.ws.idle();
    for (const what of lost) fs.rmSync(path.join(world.root, what), { recursive: true, force: true });
    expect(await world.ws.treeForRun(changed)).toBe(dir);

    expect(sh(dir, 'rev-parse', 'HEAD')).toBe(human);
    expect(sh(dir, 'symbolic-ref', '--short', 'HEAD')).toBe(job.branch);
    expect(sh(dir, 'status', '--porcelain')).toBe(status);
    expect(read(dir, 'src/sum.js')).toBe(roundChange.content);
    expect(read(dir, 'docs/human.md')).toBe('by hand\n');
  });
});
