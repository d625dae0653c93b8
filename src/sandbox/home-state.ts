import type { BigIntStats } from 'node:fs';
import { chmod, lstat, readdir, rm } from 'node:fs/promises';
import path from 'node:path';

// The job's HOME keeps only what the install made. When an install succeeds, every path under HOME
// is recorded with what identifies its content (type, mode, size, inode, change time, which no
// program can set back); before every install and test run, whatever is not recorded, or has
// changed since, is removed. So a setting a test wrote (~/.npmrc, pip.conf, .cargo/config.toml, a
// .gitconfig, a program in ~/.local/bin) never reaches a later install or run, and the install's
// own output (a virtualenv, a module cache) stays. A test that rewrote or removed part of that
// output leaves it damaged: the install runs again. What the baseline put in a build cache is kept
// the same way (BUILD_CACHES), and an entry of it a later run changed is removed, not a damage.

/** Each path under HOME (relative, `/`-separated) and what identifies it. */
export type HomeManifest = Record<string, string>;

/** A directory's times change with what it holds: only its mode identifies it. */
function identity(st: BigIntStats): string {
  if (st.isDirectory()) return `d ${st.mode}`;
  const kind = st.isFile() ? 'f' : st.isSymbolicLink() ? 'l' : 'o';
  return `${kind} ${st.mode} ${st.size} ${st.ino} ${st.ctimeNs}`;
}

interface Entry {
  rel: string;
  full: string;
  id: string;
  dir: boolean;
}

/** The entries of one directory under HOME, with their identities. */
async function entries(home: string, rel: string): Promise<Entry[]> {
  const names = await readdir(path.join(home, rel));
  return Promise.all(
    names.sort().map(async (name) => {
      const r = rel ? `${rel}/${name}` : name;
      const full = path.join(home, r);
      const st = await lstat(full, { bigint: true });
      return { rel: r, full, id: identity(st), dir: st.isDirectory() };
    }),
  );
}

/** What HOME holds now (the paths `within` takes): taken right after an install that succeeded. */
export async function homeManifest(
  home: string,
  within: (rel: string) => boolean = () => true,
): Promise<HomeManifest> {
  const manifest: HomeManifest = {};
  const walk = async (rel: string) => {
    for (const e of await entries(home, rel)) {
      if (!within(e.rel)) continue;
      manifest[e.rel] = e.id;
      if (e.dir) await walk(e.rel);
    }
  };
  await walk('');
  return manifest;
}

/**
 * Caches under HOME that the base commit's own test run may fill for the job's later runs: Go's
 * build cache (GOCACHE's default), content-addressed, so an entry is right for any run that asks
 * for it, and a missing one is only built again. Kept entries are checked like the install's: one
 * a run rewrote is removed, and what a run added goes. It spares each later run vetting the
 * standard library again; the baseline's own run starts from booty's seed (go-seed.ts).
 */
const BUILD_CACHES = ['.cache/go-build'];

/** A path inside a build cache, or a directory that leads to one. */
export const inBuildCache = (rel: string) =>
  BUILD_CACHES.some((c) => rel === c || rel.startsWith(`${c}/`) || c.startsWith(`${rel}/`));

/** Removes a path whatever a test did to its modes (a directory it made unreadable). */
async function remove(full: string): Promise<void> {
  try {
    await rm(full, { recursive: true, force: true });
  } catch {
    const open = async (p: string) => {
      await chmod(p, 0o700).catch(() => {});
      const st = await lstat(p).catch(() => null);
      if (!st?.isDirectory()) return;
      for (const name of await readdir(p).catch(() => [])) await open(path.join(p, name));
    };
    await open(full);
    await rm(full, { recursive: true, force: true });
  }
}

export interface SettledHome {
  /** What was removed: paths not made by the install, or changed since. */
  removed: string[];
  /** Part of the install's output was changed or is gone: it must run again. */
  damaged: boolean;
}

/**
 * Puts HOME back to what the install made (`manifest`; empty when no install has run), and what
 * of `caches` is as it was (a build cache the baseline filled).
 */
export async function settleHome(
  home: string,
  manifest: HomeManifest,
  caches: HomeManifest = {},
): Promise<SettledHome> {
  const removed: string[] = [];
  let kept = 0;
  let damaged = false;
  const walk = async (rel: string) => {
    for (const e of await entries(home, rel)) {
      const made = manifest[e.rel];
      if (made === e.id || (made === undefined && caches[e.rel] === e.id)) {
        if (made !== undefined) kept++;
        if (e.dir) await walk(e.rel);
        continue;
      }
      if (made !== undefined) damaged = true;
      removed.push(e.rel);
      await remove(e.full);
    }
  };
  await walk('');
  // Whatever the install made and the walk did not find again was removed or replaced.
  return { removed, damaged: damaged || kept < Object.keys(manifest).length };
}
