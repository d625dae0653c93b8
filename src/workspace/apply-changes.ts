import { lstat, mkdir, realpath, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BootyError } from '../errors.js';
import type { FileChange } from '../events/effect-results.js';

// Writes accepted changes as whole files (null deletes). Writing the same content twice leaves
// the same tree, so a re-run after a crash is harmless.
//
// booty writes the logged changes again after every test run, into a tree the tests could change.
// The path policy never lets a change go through a symbolic link, so a link found on a logged path
// now was left by a test: it is removed, never followed. Nothing is written outside the tree.

/** Makes every directory on the way a real one: links and files a test put there are removed. */
async function clearTheWay(root: string, rel: string): Promise<void> {
  const parts = rel.split('/');
  for (let i = 1; i <= parts.length; i++) {
    const at = path.join(root, ...parts.slice(0, i));
    const stat = await lstat(at).catch(() => null);
    if (!stat) return;
    const last = i === parts.length;
    if (stat.isSymbolicLink()) await unlink(at);
    else if (!last && !stat.isDirectory()) await rm(at, { force: true });
    else if (last && stat.isDirectory()) await rm(at, { recursive: true, force: true });
  }
}

export async function writeChanges(dir: string, changes: readonly FileChange[]): Promise<void> {
  const root = await realpath(dir);
  for (const change of changes) {
    const file = path.join(root, change.path);
    await clearTheWay(root, change.path);
    if (change.content === null) {
      await rm(file, { force: true });
      continue;
    }
    await mkdir(path.dirname(file), { recursive: true });
    const parent = await realpath(path.dirname(file));
    if (parent !== root && !parent.startsWith(`${root}${path.sep}`)) {
      throw new BootyError('BOOTY_E_WORKSPACE_ESCAPE', { path: change.path, where: parent });
    }
    await writeFile(file, change.content, { flag: 'w' });
  }
}
