import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BootyError } from '../../src/errors.js';
import { SELF_QUALITY_COMMANDS } from '../../src/workspace/self-modification.js';
import { createWorkspace } from '../../src/workspace/workspace.js';
import { makeRemote, nodeSample, sampleJob, sh } from '../fixtures/git-fixtures.js';
import { author, base, letGoAfter, prepareInput, signal, useScratch } from '../fixtures/workspace-scratch.js';

// booty.yml's baseBranch: the config is read from the default branch only, and the job's clone,
// baseline and PR base are the base branch's. A real bare remote with a `develop` branch.

useScratch();

/** A remote whose main names `baseBranch` in its booty.yml, and a develop branch that differs from main. */
function setup(baseBranch: string) {
  const remote = makeRemote(base, {
    ...nodeSample,
    '.github/booty.yml': `test:\n  command: node --test\nbaseBranch: ${baseBranch}\n`,
  });
  const seed = path.join(base, 'seed');
  sh(seed, 'checkout', '--quiet', '-b', 'develop');
  fs.writeFileSync(path.join(seed, 'DEVELOP.md'), 'only on develop\n');
  // develop's own booty.yml would change the test command: it must never be read.
  fs.writeFileSync(path.join(seed, '.github/booty.yml'), 'test:\n  command: echo from-develop\n');
  sh(seed, 'add', '--all');
  sh(seed, 'commit', '--quiet', '-m', 'develop');
  sh(seed, 'push', '--quiet', remote.bare, 'HEAD:refs/heads/develop');
  const root = path.join(base, 'workdir');
  const ws = createWorkspace({ root, remoteUrl: () => remote.url, author });
  letGoAfter(ws);
  return { remote, root, ws };
}

describe('prepare with baseBranch', () => {
  it('builds on the base branch: its head is the base commit and the clone, with the config read from the default branch', async () => {
    const { remote, root, ws } = setup('develop');
    const out = await ws.prepare(prepareInput(sampleJob()), { signal });
    expect(out).toMatchObject({ baseSha: remote.branchSha('develop'), defaultBranch: 'develop' });
    expect(out.config).toMatchObject({ baseBranch: 'develop', test: { command: 'node --test' } });
    const dir = path.join(root, 'jobs/job-1');
    expect(fs.readFileSync(path.join(dir, 'DEVELOP.md'), 'utf8')).toBe('only on develop\n');
    expect(sh(dir, 'rev-parse', 'HEAD')).toBe(remote.branchSha('develop'));

    // Prepared again over the same clone (a resumed step): the same answer, the config still main's.
    expect(await ws.prepare(prepareInput(sampleJob()), { signal })).toEqual(out);
  });

  it('builds on the base branch from a spare clone too', async () => {
    const { remote, ws } = setup('develop');
    await ws.prepare(prepareInput(sampleJob()), { signal });
    await ws.idle(); // the spare is made
    const second = await ws.prepare(prepareInput(sampleJob({ jobId: 'job-2', branch: 'booty/issue-7-2' })), {
      signal,
    });
    expect(second).toMatchObject({ baseSha: remote.branchSha('develop'), defaultBranch: 'develop' });
    expect(second.config.test.command).toBe('node --test');
  });

  it('given a baseBranch the remote does not have, then prepare fails naming the branch and what to do', async () => {
    const { ws } = setup('release/9.x');
    const err = await ws.prepare(prepareInput(sampleJob()), { signal }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BootyError);
    expect((err as BootyError).code).toBe('BOOTY_E_BASE_BRANCH_MISSING');
    expect((err as BootyError).message).toBe(
      '.github/booty.yml sets baseBranch: release/9.x, but the remote has no branch release/9.x: push it, or set baseBranch to an existing branch (or remove it to build on the default branch, main) on the default branch, and label the issue again',
    );
  });

  it('given baseBranch naming the default branch, then nothing moves', async () => {
    const { remote, ws } = setup('main');
    const out = await ws.prepare(prepareInput(sampleJob()), { signal });
    expect(out).toMatchObject({ baseSha: remote.head, defaultBranch: 'main' });
  });
});

describe('prepare on booty itself', () => {
  it("given a self-modification whose booty.yml names no quality commands, then booty's own lint and typecheck are its quality commands", async () => {
    const remote = makeRemote(base, nodeSample);
    const ws = createWorkspace({ root: path.join(base, 'workdir'), remoteUrl: () => remote.url, author });
    letGoAfter(ws);
    const job0 = sampleJob();
    const self = await ws.prepare(
      prepareInput({ ...job0, settings: { ...job0.settings, selfModification: true } }),
      {
        signal,
      },
    );
    expect(self.config.quality).toEqual({ commands: ['npm run lint', 'npm run typecheck'] });
    expect(SELF_QUALITY_COMMANDS).toEqual(['npm run lint', 'npm run typecheck']);
    const other = await ws.prepare(prepareInput(sampleJob({ jobId: 'job-2', branch: 'booty/issue-7-2' })), {
      signal,
    });
    expect(other.config.quality).toEqual({ commands: [] });
  });

  it('given a self-modification whose booty.yml names quality commands, then those run', async () => {
    const remote = makeRemote(base, {
      ...nodeSample,
      '.github/booty.yml': 'test:\n  command: node --test\nquality:\n  commands: [npm run check]\n',
    });
    const ws = createWorkspace({ root: path.join(base, 'workdir'), remoteUrl: () => remote.url, author });
    letGoAfter(ws);
    const job0 = sampleJob();
    const self = await ws.prepare(
      prepareInput({ ...job0, settings: { ...job0.settings, selfModification: true } }),
      {
        signal,
      },
    );
    expect(self.config.quality).toEqual({ commands: ['npm run check'] });
  });
});
