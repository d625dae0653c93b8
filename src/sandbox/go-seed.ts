import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

// `go test` vets every package its binary imports, the standard library's too, and keeps the facts
// in Go's build cache. A job's HOME starts empty, so a Go repository's first run vets fmt, net,
// testing and the rest again: 3.2 of the 3.6 CPU-seconds of a small module that imports net (vet
// runs cgo and gcc on the cgo packages). booty vets the common part of the standard library once
// per Go toolchain, into a seed in its own cache folder, and copies the seed into a Go job's HOME
// before the job's first run. A copy, not a link: each job's cache is its own to spoil. The cache
// is content-addressed, so an entry the repository does not use is never read, and a seed from
// another toolchain is only never hit.

/** What the seed's module imports: what `testing` needs, and what Go repositories often use. */
const PACKAGES = [
  'bufio',
  'bytes',
  'context',
  'crypto/sha256',
  'database/sql',
  'encoding/base64',
  'encoding/hex',
  'encoding/json',
  'errors',
  'flag',
  'fmt',
  'io',
  'log',
  'math',
  'math/rand',
  'net',
  'net/http',
  'net/http/httptest',
  'net/url',
  'os',
  'os/exec',
  'os/user',
  'path/filepath',
  'reflect',
  'regexp',
  'sort',
  'strconv',
  'strings',
  'sync',
  'text/template',
  'time',
  'unicode',
];

/** Runs a command in the sandbox as a test run would, in `cwd` with `home` as HOME. */
export type SeedRun = (cwd: string, home: string, command: string) => Promise<{ exitCode: number | null }>;

/** A Go repository: go.mod at its root, or a test command that runs go. */
export function isGoRepository(dir: string, testCommand: string): boolean {
  return existsSync(path.join(dir, 'go.mod')) || /(^|[\s;&|(])go\s+(test|vet)\b/.test(testCommand);
}

/** booty's own cache folder: `$XDG_CACHE_HOME/booty`, or `~/.cache/booty`. */
export function bootyCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'booty');
}

/** The `go` a command on this PATH runs, named by where it is and which build it is; null if none. */
function toolchainKey(searchPath: string): string | null {
  for (const dir of searchPath.split(':')) {
    if (!dir) continue;
    const go = path.join(dir, 'go');
    try {
      const st = statSync(go);
      if (!st.isFile()) continue;
      return createHash('sha256').update(`${go}\0${st.size}\0${st.mtimeMs}`).digest('hex').slice(0, 16);
    } catch {}
  }
  return null;
}

const seeds = new Map<string, Promise<string | null>>();

/**
 * The seed for this toolchain: found in the cache folder, or built there once; null when it cannot
 * be. A build that failed is not tried again by this process; one cut short (its job cancelled, a
 * timeout) is, by the next Go job.
 */
function seedFor(cacheDir: string, key: string, run: SeedRun): Promise<string | null> {
  const final = path.join(cacheDir, 'go-vet-seed', key);
  let seed = seeds.get(final);
  if (!seed) {
    seed = existsSync(final)
      ? Promise.resolve(final)
      : build(final, run).catch((err: unknown) => {
          if (err instanceof CutShort) seeds.delete(final);
          return null;
        });
    seeds.set(final, seed);
  }
  return seed;
}

class CutShort extends Error {}

async function build(final: string, run: SeedRun): Promise<string | null> {
  await mkdir(path.dirname(final), { recursive: true });
  const work = await mkdtemp(`${final}.building-`);
  try {
    const module = path.join(work, 'module');
    const home = path.join(work, 'home');
    await mkdir(module);
    await mkdir(home);
    await writeFile(path.join(module, 'go.mod'), 'module booty.local/seed\n\ngo 1.16\n');
    const imports = PACKAGES.map((p) => `\t_ "${p}"\n`).join('');
    await writeFile(path.join(module, 'seed.go'), `package seed\n\nimport (\n${imports})\n`);
    await writeFile(
      path.join(module, 'seed_test.go'),
      'package seed\n\nimport "testing"\n\nfunc TestSeed(t *testing.T) {}\n',
    );
    // vet runs as `go test` runs it (its own set of checks, which the cache keys name).
    const ran = await run(module, home, "go test -count=1 '-run=^$' .");
    if (ran.exitCode === null) throw new CutShort();
    const cache = path.join(home, '.cache', 'go-build');
    if (ran.exitCode !== 0 || !existsSync(cache)) return null;
    // Built aside and renamed in whole: a seed is never seen half made. Another process may
    // have put its own there first; either is as good.
    await rename(cache, final).catch((err: NodeJS.ErrnoException) => {
      if (!existsSync(final)) throw err;
    });
    return final;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

export interface SeedInput {
  /** The job's HOME. */
  home: string;
  /** The work tree and the test command, to tell a Go repository. */
  dir: string;
  command: string;
  /** The PATH the command runs with, to find its `go`. */
  searchPath: string;
  run: SeedRun;
  cacheDir?: string;
}

/** Left in a HOME's build cache once the seed is in: Go reads only the cache's hex folders. */
const SEEDED = 'booty-seeded';

/**
 * Copies the seed into a Go repository's HOME once (what the baseline's cache holds is kept for the
 * job's later runs), beside what an install built there, never over it. Nothing happens when there
 * is no seed: the run then only builds what the seed would have held.
 */
export async function seedGoCache(input: SeedInput): Promise<void> {
  const target = path.join(input.home, '.cache', 'go-build');
  if (existsSync(path.join(target, SEEDED)) || !isGoRepository(input.dir, input.command)) return;
  const key = toolchainKey(input.searchPath);
  if (!key) return;
  const seed = await seedFor(input.cacheDir ?? bootyCacheDir(), key, input.run);
  if (!seed) return;
  if (!existsSync(seed)) {
    // Removed under booty: this run goes on without it, and the next Go job builds it again.
    seeds.delete(seed);
    return;
  }
  // cp(1): Node's fs.cp spends three times its CPU on the seed's 800 small files. Whatever cp
  // leaves (some coreutils exit 1 on a file they did not replace; a full disk cuts a file short),
  // the cache holds nothing wrong: it checks each entry's size, and a missing one is a miss. A
  // HOME a test left unwritable only goes without.
  await mkdir(target, { recursive: true })
    .then(() => execa('cp', ['-R', '--no-clobber', `${seed}/.`, target], { reject: false }))
    .then(() => writeFile(path.join(target, SEEDED), ''))
    .catch(() => {});
}
