import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

// What the last install step that succeeded made, for every later run of the job: the digest of
// the manifests it installed (it runs again when they change), the entries it left untracked in
// the work tree (every reset keeps them, even where the repository ignores nothing), and what it
// left in the job's HOME (home-state.ts: anything else there is removed before a run), and what the
// baseline left in a build cache there. Kept in the clone's .git, which the tests cannot write; a
// clone made again has none, and installs again.

const RECORD = path.join('.git', 'booty-installed');

export const InstallRecord = z.object({
  /** Null when no install has run: the record holds only the baseline's build caches. */
  digest: z.string().nullable(),
  /** Untracked paths as git lists them: a directory with nothing tracked in it is one entry, with its slash. */
  tree: z.array(z.string()),
  /** Each path under HOME and what identifies it (home-state.ts). */
  home: z.record(z.string(), z.string()),
  /** Build cache entries the baseline made under HOME, and what identifies each (home-state.ts). */
  caches: z.record(z.string(), z.string()).default({}),
});
export type InstallRecord = z.infer<typeof InstallRecord>;

/** The record in the job's tree, or null: never installed, or installed before booty kept one. */
export async function readInstallRecord(dir: string): Promise<InstallRecord | null> {
  const text = await readFile(path.join(dir, RECORD), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    const parsed = InstallRecord.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Written beside its place and renamed: a crash leaves the old record or the new one. */
export async function writeInstallRecord(dir: string, record: InstallRecord): Promise<void> {
  const file = path.join(dir, RECORD);
  const tmp = `${file}.tmp-${randomBytes(4).toString('hex')}`;
  try {
    await writeFile(tmp, JSON.stringify(record));
    await rename(tmp, file);
  } finally {
    await rm(tmp, { force: true });
  }
}
