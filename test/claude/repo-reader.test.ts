import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoReaderFor } from '../../src/claude/repo-reader.js';
import { makeRepo } from './claude-fixtures.js';

describe('repoReaderFor', () => {
  it('lists tracked files only and reads the working tree, refusing paths outside and binaries', async () => {
    const { dir } = makeRepo({ 'bin/blob.dat': 'a\u0000b' });
    fs.writeFileSync(path.join(dir, 'untracked.js'), 'x');
    fs.writeFileSync(path.join(dir, 'README.md'), 'changed\n');
    const reader = repoReaderFor(dir);
    expect(await reader.listFiles()).toEqual([
      'README.md',
      'bin/blob.dat',
      'docs/guide.md',
      'package.json',
      'src/calculator.js',
      'test/calculator.test.js',
    ]);
    expect(await reader.readFile('README.md')).toBe('changed\n');
    expect(await reader.readFile('bin/blob.dat')).toBeNull();
    expect(await reader.readFile('../etc/passwd')).toBeNull();
    expect(await reader.readFile('missing.js')).toBeNull();
  });

  it('reads at the base commit when given a ref, whatever the worktree holds now', async () => {
    const { dir, baseSha } = makeRepo();
    fs.writeFileSync(path.join(dir, 'README.md'), 'changed\n');
    fs.writeFileSync(path.join(dir, 'new.js'), 'x');
    execFileSync('git', ['add', '-A'], { cwd: dir });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'next'], { cwd: dir });
    const reader = repoReaderFor(dir, { ref: baseSha });
    expect(await reader.listFiles()).not.toContain('new.js');
    expect(await reader.readFile('README.md')).toBe('# widgets\n\nA calculator library.\n');
    expect(await reader.readFile('new.js')).toBeNull();
  });

  it('diffs from a base to its ref, and says it cannot tell for a commit it does not hold or without a ref', async () => {
    const { dir, baseSha } = makeRepo();
    fs.writeFileSync(path.join(dir, 'README.md'), 'changed\n');
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qam', 'next'], {
      cwd: dir,
    });
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
    const reader = repoReaderFor(dir, { ref: head });
    expect(await reader.diffFrom(baseSha)).toContain('-# widgets\n-\n-A calculator library.\n+changed');
    expect(await reader.diffFrom('0'.repeat(40))).toBeNull();
    expect(await reader.diffFrom('--output=/tmp/x')).toBeNull();
    expect(await repoReaderFor(dir).diffFrom(baseSha)).toBeNull();
  });
});
