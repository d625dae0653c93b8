import fs from 'node:fs';
import path from 'node:path';
import type { Env } from '../env.js';
import { BootyError } from '../errors.js';
import { authFromEnv } from '../forges/github/auth.js';

/**
 * What the first job would trip on, checked without asking GitHub: a GitHub App's key that is
 * unreadable or not a key, and a workdir booty cannot write. Start-up runs it, and so does every
 * /readyz (a key file can go away under a running process). Throws a BootyError naming the variable.
 */
export function checkJobPrerequisites(env: Env): void {
  if (env.GITHUB_APP_ID) authFromEnv(env);
  const problem = unwritable(env.BOOTY_WORKDIR);
  if (problem) {
    throw new BootyError('BOOTY_E_ENV_INVALID', {
      name: 'BOOTY_WORKDIR',
      reason: `is not usable: ${problem}; point it at a directory booty may write (mirrors and job clones go there)`,
    });
  }
}

/** Why booty could not make and write files under `dir`, or null. A missing dir is made by the first job. */
function unwritable(dir: string): string | null {
  let at = path.resolve(dir);
  for (;;) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(at);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const parent = path.dirname(at);
      if ((code === 'ENOENT' || code === 'ENOTDIR') && parent !== at) {
        at = parent; // not there yet: the first job makes it, if its parent lets it
        continue;
      }
      return `${at} cannot be read (${code ?? (err as Error).message})`;
    }
    if (!stat.isDirectory()) return `${at} is a file, not a directory`;
    try {
      fs.accessSync(at, fs.constants.W_OK | fs.constants.X_OK);
      return null;
    } catch (err) {
      return `${at} is not writable (${(err as NodeJS.ErrnoException).code})`;
    }
  }
}
