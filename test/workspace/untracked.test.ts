import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanUntracked, untrackedBesides } from '../../src/workspace/untracked.js';
import { sh, tempDir, writeFiles } from '../fixtures/git-fixtures.js';

// The untracked files of a job's tree: what the install wrote is told apart from the change's own
// files, and a clean keeps exactly it (and the ignored files), whatever its name.

let dir = '';
beforeEach(() => {
  dir = tempDir('booty-untracked-');
  sh(dir, 'init', '--quiet', '--initial-branch=main');
  writeFiles(dir, { 'src/a.js': 'a', '.gitignore': '*.log\n' });
  sh(dir, 'add', '--all');
  sh(dir, 'commit', '--quiet', '-m', 'base');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const left = () => sh(dir, 'ls-files', '--others', '--exclude-standard').split('\n').filter(Boolean).sort();

describe('untracked files of a job tree', () => {
  it("lists what the install wrote apart from the change's files, a new directory of the change's file by file", async () => {
    writeFiles(dir, {
      'node_modules/units/index.js': 'x',
      'src/new.js': 'change',
      'lib/new.js': 'change',
      'lib/generated.js': 'install',
      'debug.log': 'ignored',
    });
    expect(await untrackedBesides(dir, ['src/new.js', 'lib/new.js'])).toEqual([
      'lib/generated.js',
      'node_modules/',
    ]);
  });

  it('cleans every untracked file but the kept ones, whatever their names, and keeps the ignored ones', async () => {
    const odd = 'we ird[1]*#!';
    writeFiles(dir, {
      'node_modules/units/index.js': 'x',
      [`${odd}/f`]: 'x',
      'lib/generated.js': 'install',
      'lib/dropped.js': 'test',
      'dropped.txt': 'test',
      wex: 'test',
      'nested/debug.log': 'ignored',
      'src/dropped.js': 'test',
    });
    await cleanUntracked(dir, ['node_modules/', `${odd}/`, 'lib/generated.js']);
    expect(left()).toEqual(['lib/generated.js', 'node_modules/units/index.js', `${odd}/f`]);
    expect(fs.existsSync(path.join(dir, 'nested/debug.log'))).toBe(true);
  });
});
