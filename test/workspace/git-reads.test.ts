import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forgetCommits } from '../../src/workspace/commit-cache.js';
import { batchObjects, readObjects, treeNames } from '../../src/workspace/git.js';
import { makeRemote, sh, tempDir } from '../fixtures/git-fixtures.js';

let base: string;
beforeEach(() => {
  base = tempDir();
  forgetCommits();
});
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

describe('batched git reads', () => {
  it('names a tree’s entries exactly as ls-tree does, whatever the names hold', async () => {
    const remote = makeRemote(base, {
      'a file with spaces.txt': 'x\n',
      'näme.md': 'y\n',
      'src/index.js': 'z\n',
      '.github/booty.yml': 'test:\n  command: npm test\n',
    });
    const tree = (await batchObjects(remote.bare, [`${remote.head}^{tree}`])).get(`${remote.head}^{tree}`)!;
    expect(tree.type).toBe('tree');
    expect(treeNames(tree.bytes, 20)).toEqual(
      sh(remote.bare, '-c', 'core.quotePath=false', 'ls-tree', '--name-only', remote.head).split('\n'),
    );
  });

  it('reads many files in one go, and keeps what a commit holds, present or absent', async () => {
    const remote = makeRemote(base, { 'a.txt': 'one\n', 'bin.dat': 'a\u0000b' });
    const spec = (p: string) => `${remote.head}:${p}`;
    const read = await readObjects(remote.bare, [
      spec('a.txt'),
      spec('missing.txt'),
      spec('bin.dat'),
      spec('.'),
    ]);
    expect(read.get(spec('a.txt'))?.toString()).toBe('one\n');
    expect(read.get(spec('bin.dat'))?.toString()).toBe('a\u0000b');
    expect(read.get(spec('missing.txt'))).toBeNull();
    expect(read.get(spec('.'))).toBeNull(); // a tree is not a file

    // Kept: the same commit read from a repository that lacks it still answers.
    const empty = `${base}/empty.git`;
    sh(base, 'init', '--quiet', '--bare', empty);
    const again = await readObjects(empty, [spec('a.txt'), spec('missing.txt')]);
    expect(again.get(spec('a.txt'))?.toString()).toBe('one\n');
    expect(again.get(spec('missing.txt'))).toBeNull();
  });

  it('does not keep "missing" for a commit the repository does not have yet', async () => {
    const remote = makeRemote(base, { 'a.txt': 'one\n' });
    const later = remote.push({ 'b.txt': 'two\n' });
    const clone = `${base}/old.git`;
    sh(base, 'clone', '--quiet', '--bare', remote.bare, clone);
    sh(clone, 'update-ref', '-d', 'refs/heads/main');
    sh(clone, 'reflog', 'expire', '--expire=now', '--all');
    sh(clone, 'gc', '--quiet', '--prune=now');
    expect((await readObjects(clone, [`${later}:b.txt`])).get(`${later}:b.txt`)).toBeNull();
    // Once the commit is there, the file is read, not remembered as absent.
    expect((await readObjects(remote.bare, [`${later}:b.txt`])).get(`${later}:b.txt`)?.toString()).toBe(
      'two\n',
    );
  });
});
