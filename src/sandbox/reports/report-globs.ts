import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
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

/** Absolute paths of the files that match `glob` (relative to `cwd`) now. */
export async function expandReportGlob(cwd: string, glob: string): Promise<string[]> {
  if (!isSafeGlob(glob)) return [];
  const scan = picomatch.scan(glob);
  if (!scan.isGlob) {
    const file = path.join(cwd, glob);
    const info = await stat(file).catch(() => null);
    return info?.isFile() ? [file] : [];
  }
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
