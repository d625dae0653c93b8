import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FileChange } from '../events/effect-results.js';

// Writes accepted changes as whole files (null deletes). Writing the same content twice leaves
// the same tree, so a re-run after a crash is harmless.

export async function writeChanges(dir: string, changes: readonly FileChange[]): Promise<void> {
  for (const change of changes) {
    const file = path.join(dir, change.path);
    if (change.content === null) {
      await rm(file, { force: true });
    } else {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, change.content);
    }
  }
}
