import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';

// Report files a repository writes itself (booty.yml `test.report`), named by globs relative to the
// work tree. They are expanded when read, because they do not exist before the run, and deleted
// before it, so a report left by an earlier run is never read as this one's.

/** Directories no report lives in, unless the glob names them. */
const SKIP = new Set(['.git', 'node_modules']);
const MAX_ENTRIES = 50_000;

/** A glob is usable when it stays inside the work tree. */
export function isSafeGlob(glob: string): boolean {
  return glob.length > 0 && !path.isAbsolute(glob) && !glob.split('/').includes('..');
}

/**
 * Whether a path lies under one of the roots with no symbolic link on the way. Tests can plant
 * links in the work tree and their HOME; booty reads and deletes reports on the host, so it never
 * follows one (into another job's files, say).
 */
export async function reachableWithoutLinks(file: string, roots: readonly string[]): Promise<boolean> {
  for (const root of roots) {
    const rel = path.relative(root, file);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) continue;
    const [realRoot, real] = await Promise.all([
      realpath(root).catch(() => null),
      realpath(file).catch(() => null),
    ]);
    return realRoot !== null && real === path.join(realRoot, rel);
  }
  return false;
}

/** Absolute paths of the files that match `glob` (relative to `cwd`) now, reached without links. */
export async function expandReportGlob(cwd: string, glob: string): Promise<string[]> {
  if (!isSafeGlob(glob)) return [];
  const scan = picomatch.scan(glob);
  if (!scan.isGlob) {
    const file = path.join(cwd, glob);
    const info = await stat(file).catch(() => null);
    return info?.isFile() && (await reachableWithoutLinks(file, [cwd])) ? [file] : [];
  }
  const base = path.join(cwd, scan.base === '.' ? '' : scan.base);
  if (base !== cwd && !(await reachableWithoutLinks(base, [cwd]))) return [];
  const isMatch = picomatch(glob, { dot: true });
  const out: string[] = [];
  let seen = 0;
  const walk = async (dir: string): Promise<void> => {
    const entries: Dirent[] = await readdir(path.join(cwd, dir), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (++seen > MAX_ENTRIES) return;
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (SKIP.has(entry.name) && !glob.includes(entry.name)) continue;
        await walk(rel);
      } else if (entry.isFile() && isMatch(rel)) {
        out.push(path.join(cwd, rel));
      }
    }
  };
  await walk(scan.base === '.' ? '' : scan.base);
  return out.sort();
}
