import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { BootyError } from '../errors.js';
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

// Only a finished clone is ever renamed to `dir`, so its HEAD file says a mirror is there.
export const isMirror = (dir: string) =>
  stat(path.join(dir, 'HEAD')).then(
    (s) => s.isFile(),
    () => false,
  );

/** Fetches every branch by an explicit refspec, so the mirror's own config never matters. */
const HEADS = '+refs/heads/*:refs/heads/*';

/**
 * The sync of each mirror that waits for the mirror's lock, not yet started, by the URL and the
 * credentials it fetches with. A caller with the same ones that comes before it starts takes its
 * result: it fetches after that caller asked, as the caller's own would, so jobs that start
 * together on one repository share one fetch. Other credentials fetch on their own: a job's own
 * are what says whether it may read the repository at all (another repository's config). The sync
 * is stopped only once every caller has stopped.
 */
interface Shared {
  sync: Promise<string>;
  /** Callers still waiting on it that may yet stop. */
  stoppable: number;
  stop: AbortController;
  /** A caller with no signal never stops: the sync then runs to its end. */
  unstoppable: boolean;
}
const queued = new Map<string, Shared>();

/** Creates or fetches the mirror; returns its path. */
export function syncMirror(input: MirrorInput): Promise<string> {
  const dir = mirrorPath(input.root, input.repo);
  const key = JSON.stringify([dir, input.url, input.auth?.username, input.auth?.password]);
  let shared = queued.get(key);
  // A queued sync every caller stopped is dropped: a new ask must not inherit its abort.
  if (!shared || shared.stop.signal.aborted) {
    const stop = new AbortController();
    const made: Shared = {
      stop,
      stoppable: 0,
      unstoppable: false,
      sync: withLock(dir, () => {
        if (queued.get(key) === made) queued.delete(key);
        return syncNow(dir, { ...input, signal: stop.signal });
      }),
    };
    queued.set(key, made);
    shared = made;
  }
  return join(shared, input.signal);
}

/** The shared sync's result for one caller, who stops waiting for it when its own signal fires. */
function join(shared: Shared, signal: AbortSignal | undefined): Promise<string> {
  if (!signal) {
    shared.unstoppable = true;
    return shared.sync;
  }
  const stopped = () => new BootyError('BOOTY_E_GIT_REMOTE', { op: 'fetch', reason: 'git aborted' });
  if (signal.aborted) return Promise.reject(stopped());
  shared.stoppable += 1;
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      shared.stoppable -= 1;
      if (shared.stoppable === 0 && !shared.unstoppable) shared.stop.abort();
      reject(stopped());
    };
    signal.addEventListener('abort', onAbort, { once: true });
    shared.sync.then(
      (dir) => {
        signal.removeEventListener('abort', onAbort);
        resolve(dir);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

async function syncNow(dir: string, { url, auth, signal }: MirrorInput): Promise<string> {
  await mkdir(path.dirname(dir), { recursive: true });
  if (await isMirror(dir)) {
    // Two round trips at once: the branches, and which of them is the default now.
    const [, head] = await Promise.all([
      git(['fetch', '--prune', '--quiet', '--no-tags', url, HEADS], {
        cwd: dir,
        auth,
        signal,
        op: 'fetch',
        remote: true,
      }),
      remoteHead(dir, url, auth, signal),
    ]);
    if (head) await git(['symbolic-ref', 'HEAD', head], { cwd: dir, op: 'symbolic-ref' });
    return dir;
  }
  // Cloned beside and renamed into place, so a crash never leaves a half mirror at `dir`.
  const tmp = `${dir}.tmp-${randomBytes(4).toString('hex')}`;
  try {
    await git(['clone', '--bare', '--quiet', '--', url, tmp], { auth, signal, op: 'clone', remote: true });
    await rm(dir, { recursive: true, force: true });
    await rename(tmp, dir);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return dir;
}

/** The remote's default branch (it may have been renamed), or null if it does not say. */
async function remoteHead(dir: string, url: string, auth: GitAuth | null, signal?: AbortSignal) {
  const out = await git(['ls-remote', '--symref', url, 'HEAD'], {
    cwd: dir,
    auth,
    signal,
    op: 'ls-remote',
    remote: true,
  });
  return /^ref: (refs\/heads\/\S+)\tHEAD$/m.exec(out)?.[1] ?? null;
}
