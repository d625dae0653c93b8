import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { BootyError } from '../errors.js';
import { type GitAuth, git, hasCommit } from './git.js';
import { METADATA } from './workspace-layout.js';

// One clone per job, made from the mirror on disk: git is told the mirror stands in for the
// remote's URL (`url.<mirror>.insteadOf`), so the clone records the real URL as origin but copies
// its objects locally, with no network. `--no-hardlinks`: a test that rewrote an object file in
// its clone must not reach the mirror that commits are built in. Checking out tens of thousands of
// files is the slow part, so a spare clone per repository is checked out ahead of time, off the
// job's path; a job renames it into place and checks out only what changed since.
// A spare has never been handed to a job, so no generated code has run in it. Everything is built
// beside its final place and renamed, so a crash leaves either no clone or a whole one.

export const CloneMetadata = z.object({
  baseSha: z.string(),
  /** The branch the job builds on: the default branch, or booty.yml's baseBranch once moved there. */
  defaultBranch: z.string(),
  branch: z.string(),
  /** The default branch's head the config was read at, once the clone moved to another base branch. */
  configSha: z.string().optional(),
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
  spare?: string;
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

/** `url.<mirror>.insteadOf=<url>`: fetches of the remote read the mirror instead. */
const fromMirror = ({ mirror, url }: Pick<Remote, 'mirror' | 'url'>) => ({
  [`url.${mirror}.insteadOf`]: url,
});

/**
 * Gives a job's clone a commit of one branch, read from the mirror (which must hold it at `ref`),
 * under the same name in the clone (origin/<branch> for a branch of the repository's own).
 * booty's URL is named, not origin: the clone's config is not booty's to trust.
 */
export async function fetchBranch(
  dir: string,
  remote: Pick<Remote, 'mirror' | 'url'>,
  ref: string,
  sha: string,
): Promise<void> {
  if (await hasCommit(dir, sha)) return;
  const into = ref.replace(/^refs\/heads\//, 'refs/remotes/origin/');
  await git(['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', remote.url, `+${ref}:${into}`], {
    cwd: dir,
    op: 'fetch',
    config: fromMirror(remote),
  });
}

/** A new clone at `dir`, of the mirror; checked out at the default branch unless `noCheckout`. */
async function cloneFrom(dir: string, remote: Remote, noCheckout: boolean): Promise<void> {
  await git(
    ['clone', '--quiet', '--no-hardlinks', ...(noCheckout ? ['--no-checkout'] : []), '--', remote.url, dir],
    { signal: remote.signal, op: 'clone', config: fromMirror(remote) },
  );
}

/** A repository's default branch and its head: `ref` is HEAD in a mirror, origin/HEAD in a clone. */
export async function headOf(dir: string, ref: string): Promise<{ baseSha: string; defaultBranch: string }> {
  const [baseSha, full] = (
    await git(['rev-parse', `${ref}^{commit}`, '--symbolic-full-name', ref], { cwd: dir, op: 'rev-parse' })
  ).split('\n');
  const defaultBranch = full?.replace(/^refs\/(heads|remotes\/origin)\//, '') ?? '';
  return { baseSha: baseSha!, defaultBranch };
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
    await cloneFrom(tmp, remote, false);
    await rename(tmp, spare);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

const checkout = (dir: string, branch: string, at: string) =>
  git(['checkout', '--quiet', '--force', '-B', branch, at], { cwd: dir, op: 'checkout' });

/**
 * Moves a prepared clone to the head of another branch (booty.yml's baseBranch), or null when the
 * clone has no such branch from the remote. The metadata is replaced last, in one rename: until
 * then the clone still says it is at the default branch, and a retried prepare moves it again.
 */
export async function moveToBranch(
  dir: string,
  meta: CloneMetadata,
  baseBranch: string,
): Promise<CloneMetadata | null> {
  const sha = await git(['rev-parse', '--verify', '--quiet', `refs/remotes/origin/${baseBranch}^{commit}`], {
    cwd: dir,
    op: 'rev-parse',
  }).catch(() => '');
  if (!sha) return null;
  await checkout(dir, meta.branch, sha);
  const moved = { baseSha: sha, defaultBranch: baseBranch, branch: meta.branch, configSha: meta.baseSha };
  const tmp = tmpBeside(path.join(dir, METADATA));
  await writeFile(tmp, JSON.stringify(moved));
  await rename(tmp, path.join(dir, METADATA));
  return moved;
}

/** Records what the clone is of and moves it into place. */
async function finish(tmp: string, dir: string, meta: CloneMetadata): Promise<CloneMetadata> {
  await writeFile(path.join(tmp, METADATA), JSON.stringify(meta));
  await rename(tmp, dir);
  return meta;
}

export async function cloneJob(input: CloneInput): Promise<CloneMetadata> {
  const { dir, mirror, auth, signal } = input;
  const tmp = tmpBeside(dir);
  await mkdir(path.dirname(dir), { recursive: true });
  try {
    // Renaming is atomic: of two jobs racing for one spare, one gets it and the other clones.
    const claimed =
      input.spare !== undefined &&
      (await rename(input.spare, tmp).then(
        () => true,
        () => false,
      ));
    let at = input.at;
    if (claimed) {
      // A spare may be older than the mirror: bring its branches and default branch up to date.
      // booty's URL is named, not origin: the remote's address may have changed since the spare was made.
      await git(
        ['fetch', '--quiet', '--prune', '--no-tags', input.url, '+refs/heads/*:refs/remotes/origin/*'],
        {
          cwd: tmp,
          op: 'fetch',
          config: fromMirror(input),
        },
      );
      at ??= await headOf(mirror, 'HEAD');
      await git(['symbolic-ref', 'refs/remotes/origin/HEAD', `refs/remotes/origin/${at.defaultBranch}`], {
        cwd: tmp,
        op: 'symbolic-ref',
      });
    } else {
      await cloneFrom(tmp, input, true);
      if (!at) {
        // A fresh clone's origin/HEAD is the mirror's HEAD, as the clone copied it:
        // check it out and read which commit and branch it is at once, both by that one name.
        const origin = 'refs/remotes/origin/HEAD';
        const [head] = await Promise.all([headOf(tmp, origin), checkout(tmp, input.branch, origin)]);
        return await finish(tmp, dir, { ...head, branch: input.branch });
      }
    }
    const present = !input.at || (await hasCommit(tmp, at.baseSha));
    if (!present) {
      // The base commit is no longer on any branch: ask the remote for it by id.
      await git(['fetch', '--quiet', input.url, at.baseSha], {
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
    await checkout(tmp, input.branch, at.baseSha);
    return await finish(tmp, dir, { ...at, branch: input.branch });
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
