import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { BootyError } from '../errors.js';
import { type GitAuth, git } from './git.js';
import { METADATA } from './workspace-layout.js';

// One clone per job, borrowing objects from the mirror (`--reference-if-able`) and then copying
// them (`--dissociate`), so a gc of the mirror can never break a running job. Checking out tens
// of thousands of files is the slow part, so a spare clone per repository is checked out ahead of
// time, off the job's path; a job renames it into place and checks out only what changed since.
// A spare has never been handed to a job, so no generated code has run in it. Everything is built
// beside its final place and renamed, so a crash leaves either no clone or a whole one.

export const CloneMetadata = z.object({
  baseSha: z.string(),
  defaultBranch: z.string(),
  branch: z.string(),
});
export type CloneMetadata = z.infer<typeof CloneMetadata>;

interface Remote {
  mirror: string;
  url: string;
  auth: GitAuth | null;
  signal?: AbortSignal;
}

export interface CloneInput extends Remote {
  dir: string;
  /** A spare clone of the same repository to start from, if one is there. */
  spare: string;
  branch: string;
  /** Check out this commit (a rebuild); else the head of the remote's default branch. */
  at?: { baseSha: string; defaultBranch: string };
}

const tmpBeside = (dir: string) => `${dir}.tmp-${randomBytes(4).toString('hex')}`;

export async function readMetadata(dir: string): Promise<CloneMetadata | null> {
  const text = await readFile(path.join(dir, METADATA), 'utf8').catch(() => null);
  const parsed = text === null ? null : CloneMetadata.safeParse(JSON.parse(text));
  return parsed?.success ? parsed.data : null;
}

/** A new clone at `dir`, nothing checked out. */
async function freshClone(dir: string, { mirror, url, auth, signal }: Remote): Promise<void> {
  await git(
    ['clone', '--quiet', '--no-checkout', '--reference-if-able', mirror, '--dissociate', '--', url, dir],
    {
      auth,
      signal,
      op: 'clone',
      remote: true,
    },
  );
}

/** The remote's default branch and its head, as the mirror last fetched them. */
async function mirrorHead(mirror: string): Promise<{ baseSha: string; defaultBranch: string }> {
  const defaultBranch = await git(['symbolic-ref', '--short', 'HEAD'], { cwd: mirror, op: 'symbolic-ref' });
  const baseSha = await git(['rev-parse', '--verify', `refs/heads/${defaultBranch}^{commit}`], {
    cwd: mirror,
    op: 'rev-parse',
  });
  return { baseSha, defaultBranch };
}

/** Builds the next spare for a repository; a no-op if one is already there. */
export async function makeSpare(spare: string, remote: Remote): Promise<void> {
  if (
    await readFile(path.join(spare, '.git', 'HEAD')).then(
      () => true,
      () => false,
    )
  )
    return;
  await mkdir(path.dirname(spare), { recursive: true });
  const tmp = tmpBeside(spare);
  try {
    await freshClone(tmp, remote);
    const { baseSha } = await mirrorHead(remote.mirror);
    await git(['checkout', '--quiet', '--detach', baseSha], { cwd: tmp, op: 'checkout' });
    await rename(tmp, spare);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

export async function cloneJob(input: CloneInput): Promise<CloneMetadata> {
  const { dir, mirror, auth, signal } = input;
  const tmp = tmpBeside(dir);
  await mkdir(path.dirname(dir), { recursive: true });
  try {
    // Renaming is atomic: of two jobs racing for one spare, one gets it and the other clones.
    const claimed = await rename(input.spare, tmp).then(
      () => true,
      () => false,
    );
    if (!claimed) await freshClone(tmp, input);
    await git(['remote', 'set-url', 'origin', input.url], { cwd: tmp, op: 'config' });
    // The mirror was just fetched: bring its branches over from disk, no network.
    await git(['fetch', '--quiet', '--no-tags', mirror, '+refs/heads/*:refs/remotes/origin/*'], {
      cwd: tmp,
      op: 'fetch',
    });
    const at = input.at ?? (await mirrorHead(mirror));
    await git(['symbolic-ref', 'refs/remotes/origin/HEAD', `refs/remotes/origin/${at.defaultBranch}`], {
      cwd: tmp,
      op: 'symbolic-ref',
    });
    const present = await git(['cat-file', '-t', at.baseSha], { cwd: tmp, op: 'cat-file' }).catch(() => '');
    if (present !== 'commit') {
      // The base commit is no longer on any branch: ask the remote for it by id.
      await git(['fetch', '--quiet', 'origin', at.baseSha], {
        cwd: tmp,
        auth,
        signal,
        op: 'fetch',
        remote: true,
      }).catch((err: unknown) => {
        throw new BootyError('BOOTY_E_WORKSPACE_LOST', {
          jobId: path.basename(dir),
          reason: `the base commit ${at.baseSha} is gone from the remote (${(err as Error).message})`,
        });
      });
    }
    // From a spare this writes only the files that changed since the spare was made.
    await git(['checkout', '--quiet', '--force', '-B', input.branch, at.baseSha], {
      cwd: tmp,
      op: 'checkout',
    });
    const meta: CloneMetadata = { ...at, branch: input.branch };
    await writeFile(path.join(tmp, METADATA), JSON.stringify(meta));
    await rename(tmp, dir);
    return meta;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
