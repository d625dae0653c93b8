import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { isBootyError } from '../../src/errors.js';
import type { Applied } from '../../src/events/effect-results.js';
import type { JobContext } from '../../src/machines/job-context.js';
import { createWorkspace } from '../../src/workspace/workspace.js';
import { makeRemote, nodeSample, sampleJob, sh, tempDir, writeFiles } from '../fixtures/git-fixtures.js';
import { author } from './round-harness.js';

// A round on a fork's pull request: the branch is read from the fork and the round's commit is
// pushed back to it, on top of its author's commit, while the repository's own branches (one of
// the same name among them) stay as they were; run again after a crash, even on a machine with
// no workdir, it finds its commit there and pushes nothing. A branch the fork deleted is missing.

let base: string;
beforeEach(() => {
  base = tempDir();
});
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

const signal = new AbortController().signal;
const round = { n: 1, at: 1_700_000_500, message: 'fix: follow-up (#7)' };
const refsOf = (bare: string) => sh(bare, 'for-each-ref', '--format=%(objectname) %(refname)');

it("pushes a fork's round to the fork's branch, on top of its author's commit, and never twice", async () => {
  const remote = makeRemote(base, nodeSample);
  const forkBare = path.join(base, 'fork.git');
  sh(base, 'clone', '--bare', '--quiet', remote.bare, forkBare);
  // The repository has moved on, and has a branch of the same name, which is not the pull request's.
  remote.push({ 'docs/own.md': 'ours\n' }, 'own work');
  sh(remote.bare, 'branch', 'parse', 'main');
  const person = path.join(base, 'person');
  sh(base, 'clone', '--quiet', forkBare, person);
  sh(person, 'checkout', '--quiet', '-b', 'parse');
  writeFiles(person, { 'docs/theirs.md': 'theirs\n' });
  sh(person, 'add', '--all');
  sh(person, 'commit', '--quiet', '-m', 'their work');
  sh(person, 'push', '--quiet', 'origin', 'parse');
  const theirs = sh(person, 'rev-parse', 'HEAD');

  const root = path.join(base, 'workdir');
  const ws = createWorkspace({
    root,
    remoteUrl: (repo) => (repo.owner === 'forker' ? `file://${forkBare}` : remote.url),
    author,
  });
  const sample = sampleJob();
  let job: JobContext = {
    ...sample,
    branch: 'parse',
    request: {
      ...sample.request,
      onPr: {
        number: 3,
        url: 'https://github.test/acme/widgets/pull/3',
        nodeId: 'PR_3',
        draft: false,
        author: 'forker',
        headRef: 'parse',
        headSha: theirs,
        fork: 'forker/widgets',
        maintainerCanModify: true,
      },
    },
  };
  const step = (name: 'prepare' | 'applyChanges') => ({
    key: `${job.jobId}:${name}:0`,
    step: name,
    attempt: 0,
    notBefore: null,
    job,
  });
  const prepared = await ws.prepare(step('prepare'), { signal });
  job = { ...job, workspace: { baseSha: prepared.baseSha, defaultBranch: prepared.defaultBranch } };
  const { headSha } = await ws.syncRound(job, signal);
  expect(headSha).toBe(theirs);
  job = { ...job, workspace: { ...job.workspace!, baseSha: headSha } };
  job = {
    ...job,
    proposal: {
      changes: [{ path: 'src/sum.js', content: 'exports.sum = (a, b) => a + b;\n' }],
      explanation: '',
    },
  };
  const applied = (await ws.applyChanges(step('applyChanges'), { signal })) as Omit<Applied, 'at'>;
  job = { ...job, changes: applied.applied };
  const ownRefs = refsOf(remote.bare);

  const out = await ws.pushRound(job, round, signal);

  expect(out).toEqual({ commit: out.commit, headSha: out.commit, rebased: false });
  expect(sh(forkBare, 'log', '--format=%H', '-2', 'parse').split('\n')).toEqual([out.commit, theirs]);
  expect(sh(forkBare, 'show', `${out.commit}:docs/theirs.md`)).toBe('theirs');
  expect(refsOf(remote.bare)).toBe(ownRefs);

  // Run again after a crash, then on a new machine: the commit is found on the fork's branch.
  const forkRefs = refsOf(forkBare);
  expect(await ws.pushRound(job, round, signal)).toEqual(out);
  await ws.idle();
  for (const dir of ['jobs', 'mirrors', 'spares']) fs.rmSync(path.join(root, dir), { recursive: true });
  expect(await ws.pushRound(job, round, signal)).toEqual(out);
  expect(refsOf(forkBare)).toBe(forkRefs);
  for (const dir of ['jobs', 'mirrors', 'spares'])
    fs.rmSync(path.join(root, dir), { recursive: true, force: true });
  expect(await ws.syncRound(job, signal)).toEqual({ headSha: out.commit });

  // The author deletes the branch: there is no head to work on.
  sh(forkBare, 'branch', '-D', 'parse');
  const gone = await ws.syncRound(job, signal).catch((err: unknown) => err);
  expect(isBootyError(gone, 'BOOTY_E_BRANCH_MISSING')).toBe(true);
  await ws.idle();
  expect(refsOf(remote.bare)).toBe(ownRefs);
});
