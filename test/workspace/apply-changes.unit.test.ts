import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeChanges } from '../../src/workspace/apply-changes.js';
import { tempDir } from '../support/job-harness.js';

// booty writes the logged changes again after every test run, into a tree the tests could change:
// a link a test left on the way is removed, never followed.

describe('writeChanges', () => {
  it('writes through no symbolic link a test left, inside or outside the tree', async () => {
    const root = tempDir('booty-apply-');
    const dir = path.join(root, 'work');
    const outside = path.join(root, 'outside');
    fs.mkdirSync(path.join(dir, '.git'), { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'config'), 'precious');
    fs.symlinkSync(outside, path.join(dir, 'box')); // a directory link leading out
    fs.symlinkSync('.git', path.join(dir, 'gitlink')); // a link into .git
    fs.symlinkSync(path.join(outside, 'config'), path.join(dir, 'file-link')); // a file link

    await writeChanges(dir, [
      { path: 'box/config', content: 'model content' },
      { path: 'gitlink/config', content: 'model content' },
      { path: 'file-link', content: 'model content' },
      { path: 'box/gone.txt', content: null },
    ]);

    expect(fs.readFileSync(path.join(outside, 'config'), 'utf8')).toBe('precious');
    expect(fs.existsSync(path.join(dir, '.git', 'config'))).toBe(false);
    for (const p of ['box/config', 'gitlink/config', 'file-link']) {
      expect(fs.lstatSync(path.join(dir, p)).isFile()).toBe(true);
      expect(fs.readFileSync(path.join(dir, p), 'utf8')).toBe('model content');
    }
    expect(fs.lstatSync(path.join(dir, 'box')).isDirectory()).toBe(true);
  });
});
