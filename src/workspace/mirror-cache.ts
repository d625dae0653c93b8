import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { RepoRef } from '../events/job-events.js';
import { type GitAuth, git } from './git.js';
import { withLock } from './keyed-lock.js';
import { mirrorPath } from './workspace-layout.js';

// A bare clone per repository, fetched at the start of every job, so a job's own clone only
// borrows objects from disk. A plain bare clone with a heads-only refspec, not `--mirror`: a mirror
// also fetches every pull-request ref, and nothing here needs them.

export interface MirrorInput {
  root: string;
  repo: RepoRef;
  url: string;
  auth: GitAuth | null;
  signal?: AbortSignal;
}

async function isBare(dir: string): Promise<boolean> {
  // GIT_DIR pins git to this directory: it must not find an enclosing repository instead.
  const out = await git(['rev-parse', '--is-bare-repository'], {
    cwd: path.dirname(dir),
    env: { GIT_DIR: dir },
    op: 'rev-parse',
  }).catch(() => 'false');
  return out.trim() === 'true';
}

/** Creates or fetches the mirror; returns its path. */
export function syncMirror({ root, repo, url, auth, signal }: MirrorInput): Promise<string> {
  const dir = mirrorPath(root, repo);
  return withLock(dir, async () => {
    await mkdir(path.dirname(dir), { recursive: true });
    if (await isBare(dir)) {
      await git(['config', 'remote.origin.url', url], { cwd: dir, op: 'config' });
      await git(['fetch', '--prune', '--quiet', 'origin'], {
        cwd: dir,
        auth,
        signal,
        op: 'fetch',
        remote: true,
      });
      await followDefaultBranch(dir, auth, signal);
      return dir;
    }
    // Cloned beside and renamed into place, so a crash never leaves a half mirror at `dir`.
    const tmp = `${dir}.tmp-${randomBytes(4).toString('hex')}`;
    try {
      await git(['clone', '--bare', '--quiet', '--', url, tmp], { auth, signal, op: 'clone', remote: true });
      await git(['config', 'remote.origin.fetch', '+refs/heads/*:refs/heads/*'], { cwd: tmp, op: 'config' });
      await rm(dir, { recursive: true, force: true });
      await rename(tmp, dir);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
    return dir;
  });
}

/** Points the mirror's HEAD at the remote's default branch, which may have been renamed. */
async function followDefaultBranch(dir: string, auth: GitAuth | null, signal?: AbortSignal) {
  const out = await git(['ls-remote', '--symref', 'origin', 'HEAD'], {
    cwd: dir,
    auth,
    signal,
    op: 'ls-remote',
    remote: true,
  });
  const ref = /^ref: (refs\/heads\/\S+)\tHEAD$/m.exec(out)?.[1];
  if (ref) await git(['symbolic-ref', 'HEAD', ref], { cwd: dir, op: 'symbolic-ref' });
}
