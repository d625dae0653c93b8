import fs from 'node:fs/promises';
import path from 'node:path';
import { simpleGit } from 'simple-git';

// How the Claude steps see the repository. The integrator gives each job a reader over its
// workspace; reading at the job's base commit (not the worktree) keeps the repository context the
// same on every attempt, so the prompt prefix stays cacheable. What the job changed since comes
// from the job's own log (`job.changes`).

export interface RepoReader {
  /** Every tracked path, relative to the repository root, with forward slashes. */
  listFiles(): Promise<string[]>;
  /** A file's text, or null when it is missing, binary or too large to be worth reading. */
  readFile(path: string): Promise<string | null>;
}

export interface RepoReaderOptions {
  /** Read at this commit (`git ls-tree` + `git show`) instead of the working tree (`git ls-files` + fs). */
  ref?: string;
  maxFileBytes?: number;
}

export function repoReaderFor(dir: string, options: RepoReaderOptions = {}): RepoReader {
  const git = simpleGit(dir);
  const maxBytes = options.maxFileBytes ?? 512 * 1024;
  const { ref } = options;
  const text = (content: string | Buffer) => {
    const s = typeof content === 'string' ? content : content.toString('utf8');
    return s.length > maxBytes || s.includes('\u0000') ? null : s;
  };

  return {
    async listFiles() {
      const out = ref
        ? await git.raw(['ls-tree', '-r', '-z', '--name-only', ref])
        : await git.raw(['ls-files', '-z', '--cached']);
      return out
        .split('\u0000')
        .filter(Boolean)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    },
    async readFile(file) {
      if (!isInside(file)) return null;
      if (ref) {
        try {
          return text(await git.raw(['show', `${ref}:${file}`]));
        } catch {
          return null;
        }
      }
      try {
        const full = path.join(dir, file);
        const stat = await fs.stat(full);
        if (!stat.isFile() || stat.size > maxBytes) return null;
        return text(await fs.readFile(full));
      } catch {
        return null;
      }
    },
  };
}

const isInside = (file: string) =>
  file.length > 0 && !path.isAbsolute(file) && !file.split(/[\\/]/).includes('..');
