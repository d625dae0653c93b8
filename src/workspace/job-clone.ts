import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { BootyError } from '../errors.js';
import { type GitAuth, git } from './git.js';
import { METADATA } from './workspace-layout.js';

// One clone per job, borrowing objects from the mirror (`--reference-if-able`) and then copying
// them (`--dissociate`), so a gc of the mirror can never break a running job. Built beside its
// final place and renamed, so a crash leaves either no clone or a whole one.

export const CloneMetadata = z.object({
  baseSha: z.string(),
  defaultBranch: z.string(),
  branch: z.string(),
});
export type CloneMetadata = z.infer<typeof CloneMetadata>;

export interface CloneInput {
  dir: string;
  mirror: string;
  url: string;
  branch: string;
  auth: GitAuth | null;
  signal?: AbortSignal;
  /** Check out this commit (a rebuild); else the head of the remote's default branch. */
  at?: { baseSha: string; defaultBranch: string };
}

export async function readMetadata(dir: string): Promise<CloneMetadata | null> {
  const text = await readFile(path.join(dir, METADATA), 'utf8').catch(() => null);
  const parsed = text === null ? null : CloneMetadata.safeParse(JSON.parse(text));
  return parsed?.success ? parsed.data : null;
}

export async function cloneJob(input: CloneInput): Promise<CloneMetadata> {
  const { dir, auth, signal } = input;
  const tmp = `${dir}.tmp-${randomBytes(4).toString('hex')}`;
  await mkdir(path.dirname(dir), { recursive: true });
  try {
    await git(
      [
        'clone',
        '--quiet',
        '--no-checkout',
        '--reference-if-able',
        input.mirror,
        '--dissociate',
        '--',
        input.url,
        tmp,
      ],
      { auth, signal, op: 'clone', remote: true },
    );
    const at = input.at ?? (await remoteHead(tmp));
    const present = await git(['cat-file', '-t', at.baseSha], { cwd: tmp, op: 'cat-file' }).catch(() => '');
    if (present !== 'commit') {
      // The base commit is no longer on any branch: ask for it by id.
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
    await git(['-c', 'checkout.workers=0', 'checkout', '--quiet', '-B', input.branch, at.baseSha], {
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

async function remoteHead(dir: string): Promise<{ baseSha: string; defaultBranch: string }> {
  const ref = await git(['symbolic-ref', '--short', 'refs/remotes/origin/HEAD'], {
    cwd: dir,
    op: 'symbolic-ref',
  });
  const defaultBranch = ref.replace(/^origin\//, '');
  const baseSha = await git(['rev-parse', '--verify', `refs/remotes/origin/${defaultBranch}^{commit}`], {
    cwd: dir,
    op: 'rev-parse',
  });
  return { baseSha, defaultBranch };
}
