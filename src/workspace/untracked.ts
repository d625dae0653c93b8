import { git } from './git.js';

// The untracked files of a job's tree after a reset to the base commit. The install step's are
// kept: in a repository with no .gitignore, node_modules, a virtualenv or target/ is untracked, and
// removing it would leave the next run without what the install prepared. Every other untracked
// file was left by a test, or by an earlier change, and is removed. Ignored files stay, as always.

/**
 * Untracked paths as git lists them: a directory with nothing tracked in it is one entry, with its
 * slash (node_modules/), and one holding only ignored files is left out; `under` lists that
 * directory's files one by one instead.
 */
async function untracked(dir: string, under?: string): Promise<string[]> {
  const args = ['ls-files', '-z', '--others', '--exclude-standard'];
  const out = await git(
    under === undefined ? [...args, '--directory', '--no-empty-directory'] : [...args, '--', under],
    { cwd: dir, op: 'ls-files', env: { GIT_LITERAL_PATHSPECS: '1' } },
  );
  return out.split('\0').filter(Boolean);
}

/** Whether an untracked entry is one of those kept, or inside a kept directory. */
export const isKept = (entry: string, kept: readonly string[]) =>
  kept.some((k) => entry === k || (k.endsWith('/') && entry.startsWith(k)));

/**
 * What is untracked now besides the change's own files: right after an install, what it wrote. A
 * new directory of the change's is listed file by file, so that only the install's files in it count.
 */
export async function untrackedBesides(dir: string, changed: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await untracked(dir)) {
    const holdsChange = entry.endsWith('/') && changed.some((p) => p.startsWith(entry));
    if (holdsChange) {
      for (const file of await untracked(dir, entry)) if (!changed.includes(file)) found.push(file);
    } else if (!changed.includes(entry)) found.push(entry);
  }
  return found;
}

/** A path as a .gitignore pattern matching it alone: anchored at the root, every special character escaped. */
const literalPattern = (entry: string) => `/${entry.replace(/[\\*?[\]!# ]/g, (c) => `\\${c}`)}`;

/**
 * `git clean` of every untracked file but the kept ones, which it is told to treat as ignored. A
 * path holding a newline cannot be a pattern: it is not kept.
 */
export async function cleanUntracked(dir: string, kept: readonly string[]): Promise<void> {
  const excludes = kept.filter((k) => !k.includes('\n')).flatMap((k) => ['-e', literalPattern(k)]);
  await git(['clean', '-fdq', ...excludes], { cwd: dir, op: 'clean' });
}
