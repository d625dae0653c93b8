import type { Dirent } from 'node:fs';
import { access, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { TestCase } from '../../events/effect-results.js';
import type { CaseBatch } from './case-list.js';

// Some runners name a test's file relative to their own test folder, not the repository:
// Playwright's JUnit says `all.spec.js` for tests/all.spec.js when the config's testDir is
// `tests`. Ids must name the file as the repository does, or a change's tests are never matched
// to what ran. A relative file that is not in the work tree is put where the one file of the work
// tree whose path ends with it is.

const MAX_FILES = 20_000;

/** The work tree's files, repository-relative, without node_modules and dot folders. */
export async function workTreeFiles(
  cwd: string,
  keep: (name: string) => boolean = () => true,
): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries: Dirent[] = await readdir(path.join(cwd, dir), { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (out.length >= MAX_FILES) return;
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.')) await walk(rel);
      else if (e.isFile() && keep(e.name)) out.push(rel);
    }
  };
  await walk('');
  return out.sort();
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

export async function anchorFiles(batch: CaseBatch, cwd: string): Promise<CaseBatch> {
  const named = [...new Set([...batch.cases.map((c) => c.file), ...batch.loadErrors.map((e) => e.file)])];
  const missing: string[] = [];
  for (const file of named) {
    if (file && !path.isAbsolute(file) && !file.startsWith('..') && !(await exists(path.join(cwd, file))))
      missing.push(file);
  }
  if (missing.length === 0) return batch;
  const files = await workTreeFiles(cwd);
  const moved = new Map<string, string>();
  for (const file of missing) {
    const found = files.filter((f) => f.endsWith(`/${file}`));
    if (found.length === 1) moved.set(file, found[0]!);
  }
  if (moved.size === 0) return batch;
  const place = (c: TestCase): TestCase => {
    const to = c.file ? moved.get(c.file) : undefined;
    if (!to || !c.file) return c;
    return { ...c, file: to, id: c.id.startsWith(c.file) ? to + c.id.slice(c.file.length) : c.id };
  };
  return {
    cases: batch.cases.map(place),
    loadErrors: batch.loadErrors.map((e) => ({ ...e, file: moved.get(e.file) ?? e.file })),
  };
}
