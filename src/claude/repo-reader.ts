import fs from 'node:fs/promises';
import path from 'node:path';
import { filesAt, git, readObjects, sortedPaths } from '../workspace/git.js';

// How the Claude steps see the repository. The integrator gives each job a reader over its
// workspace; reading at the job's base commit (not the worktree) keeps the repository context the
// same on every attempt, so the prompt prefix stays cacheable. What the job changed since comes
// from the job's own log (`job.changes`). Reads go through booty's hardened git, many files to one
// process: the clone's .git has been beside code a test ran, and a step may read hundreds of files.

export interface RepoReader {
  /** Every tracked path, relative to the repository root, with forward slashes. */
  listFiles(): Promise<string[]>;
  /** A file's text, or null when it is missing, binary or too large to be worth reading. */
  readFile(path: string): Promise<string | null>;
  /** Many files at once, each as readFile would give it. */
  readFiles(paths: readonly string[]): Promise<Map<string, string | null>>;
  /** What changed from `base` to the commit read (a reader with a ref), as a unified diff; null when it cannot tell. */
  diffFrom(base: string): Promise<string | null>;
}

export interface RepoReaderOptions {
  /** Read at this commit (`git ls-tree` + `git cat-file`) instead of the working tree (`git ls-files` + fs). */
  ref?: string;
  maxFileBytes?: number;
}

export function repoReaderFor(dir: string, options: RepoReaderOptions = {}): RepoReader {
  const maxBytes = options.maxFileBytes ?? 512 * 1024;
  const { ref } = options;
  const text = (content: Buffer | null) =>
    content === null || content.length > maxBytes || content.includes(0) ? null : content.toString('utf8');

  async function fromTree(file: string): Promise<string | null> {
    try {
      const full = path.join(dir, file);
      const stat = await fs.lstat(full);
      return stat.isFile() && stat.size <= maxBytes ? text(await fs.readFile(full)) : null;
    } catch {
      return null;
    }
  }

  async function readFiles(paths: readonly string[]): Promise<Map<string, string | null>> {
    const inside = paths.filter(isInside);
    const found = new Map<string, string | null>(paths.map((p) => [p, null]));
    if (ref) {
      const objects = await readObjects(
        dir,
        inside.map((p) => `${ref}:${p}`),
      );
      for (const p of inside) found.set(p, text(objects.get(`${ref}:${p}`) ?? null));
    } else {
      for (const p of inside) found.set(p, await fromTree(p));
    }
    return found;
  }

  return {
    async listFiles() {
      if (ref) return filesAt(dir, ref);
      const out = await git(['ls-files', '-z', '--cached'], { cwd: dir, op: 'ls-files' });
      return sortedPaths(out);
    },
    readFiles,
    async readFile(file) {
      return (await readFiles([file])).get(file) ?? null;
    },
    async diffFrom(base) {
      if (!ref || !/^[0-9a-f]{40}$/i.test(base)) return null;
      // A branch rewritten by hand may no longer hold the base: the round goes on without its diff.
      return git(['diff', '--no-color', '--no-ext-diff', '--no-renames', base, ref], {
        cwd: dir,
        op: 'diff',
      }).catch(() => null);
    },
  };
}

const isInside = (file: string) =>
  file.length > 0 && !path.isAbsolute(file) && !file.split(/[\\/]/).includes('..');
