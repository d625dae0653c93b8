import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import type { SandboxMode } from './bwrap.js';
import { chooseSandbox } from './run-command.js';

// `go test` vets every package its binary imports, the standard library's too, and keeps the facts
// in Go's build cache. A job's HOME starts empty, so a Go repository's first run vets fmt, net,
// testing and the rest again: 3.2 of the 3.6 CPU-seconds of a small module that imports net (vet
// runs cgo and gcc on the cgo packages). booty vets the common part of the standard library once
// per Go toolchain, into a seed in its own cache folder, and copies the seed into a Go job's HOME
// before the job's first run. A copy, not a link: each job's cache is its own to spoil. The cache
// is content-addressed, so an entry the repository does not use is never read, and a seed from
// another toolchain is only never hit. Go checks an entry's size and not its hash, so the seed is
// shared only where bubblewrap walls the runs off from booty's cache folder; without the wall a
// test could rewrite it for every later job, and no seed is used.

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
export type SeedRun = (run: {
  cwd: string;
  home: string;
  command: string;
  signal: AbortSignal;
  timeoutMs: number;
}) => Promise<{ exitCode: number | null }>;

/** The seed's own bound, apart from any job's: it takes some seconds of CPU. */
const BUILD_TIMEOUT_MS = 300_000;
/** How long a process goes without a seed after a build that failed, before it tries again. */
const RETRY_AFTER_MS = 10 * 60_000;
/** A folder a build left when its process died: older than any build runs. */
const ABANDONED_MS = 60 * 60_000;

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
 * The seed for this toolchain: found in the cache folder, or built there once, on no job's signal
 * (a job cancelled does not cut it short for the others waiting on it); null when it cannot be.
 * After a build that failed, the process goes without for a while, then tries again.
 */
function seedFor(cacheDir: string, key: string, run: SeedRun): Promise<string | null> {
  const final = path.join(cacheDir, 'go-vet-seed', key);
  let seed = seeds.get(final);
  if (!seed) {
    seed = existsSync(final) ? Promise.resolve(final) : build(final, run).catch(() => null);
    seeds.set(final, seed);
    void seed.then((built) => {
      if (!built) setTimeout(() => seeds.delete(final), RETRY_AFTER_MS).unref();
    });
  }
  return seed;
}

async function build(final: string, run: SeedRun): Promise<string | null> {
  const folder = path.dirname(final);
  await mkdir(folder, { recursive: true });
  await sweepAbandoned(folder);
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
    const ran = await run({
      cwd: module,
      home,
      command: "go test -count=1 '-run=^$' .",
      signal: new AbortController().signal,
      timeoutMs: BUILD_TIMEOUT_MS,
    });
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

/** Removes the folders of builds whose process died before it could. */
async function sweepAbandoned(folder: string): Promise<void> {
  for (const name of await readdir(folder).catch(() => [])) {
    if (!name.includes('.building-')) continue;
    const full = path.join(folder, name);
    const st = await lstat(full).catch(() => null);
    if (st && Date.now() - st.mtimeMs > ABANDONED_MS) await rm(full, { recursive: true, force: true });
  }
}

/** A real directory at `dir` (made if absent), not a symbolic link a run left to lead elsewhere. */
async function ownDirectory(dir: string): Promise<boolean> {
  const st = await lstat(dir).catch(() => null);
  if (!st)
    return mkdir(dir).then(
      () => true,
      () => false,
    );
  return st.isDirectory();
}

const present = (p: string) =>
  lstat(p).then(
    () => true,
    () => false,
  );

export interface SeedInput {
  /** The job's HOME. */
  home: string;
  /** The work tree and the test command, to tell a Go repository. */
  dir: string;
  command: string;
  /** The PATH the command runs with, to find its `go`. */
  searchPath: string;
  /** The runs' sandbox mode: only inside bubblewrap is a seed shared (see above). */
  sandbox: SandboxMode;
  bwrapPath?: string;
  run: SeedRun;
  /** The job's own: it waits for a seed being built no longer than it runs. */
  signal: AbortSignal;
  cacheDir?: string;
}

/** Left in a HOME's build cache once the seed is in: Go reads only the cache's hex folders. */
const SEEDED = 'booty-seeded';

/**
 * Copies the seed into a Go repository's HOME once (what the baseline's cache holds is kept for the
 * job's later runs), beside what an install built there, never over it. Nothing happens when there
 * is no seed: the run then only builds what the seed would have held.
 *
 * booty writes here outside the sandbox, in a HOME the repository's install and tests have written:
 * it follows no symbolic link they left (`.cache`, `go-build` or the marker), and cp(1) writes a
 * file where none is, so a link they left inside the cache stays as it is.
 */
export async function seedGoCache(input: SeedInput): Promise<void> {
  if (!isGoRepository(input.dir, input.command)) return;
  if ((await chooseSandbox(input.sandbox, input.bwrapPath)) !== 'bwrap') return;
  const cache = path.join(input.home, '.cache');
  const target = path.join(cache, 'go-build');
  if (await present(path.join(target, SEEDED))) return;
  const key = toolchainKey(input.searchPath);
  if (!key) return;
  const building = seedFor(input.cacheDir ?? bootyCacheDir(), key, input.run);
  const cancelled = new Promise<null>((resolve) => {
    if (input.signal.aborted) resolve(null);
    input.signal.addEventListener('abort', () => resolve(null), { once: true });
  });
  const seed = await Promise.race([building, cancelled]);
  if (!seed || input.signal.aborted) return;
  if (!existsSync(seed)) {
    // Removed under booty: this run goes on without it, and the next Go job builds it again.
    seeds.delete(seed);
    return;
  }
  if (!(await ownDirectory(cache)) || !(await ownDirectory(target))) return;
  // cp(1): Node's fs.cp spends three times its CPU on the seed's 800 small files. Whatever cp
  // leaves (some coreutils exit 1 on a file they did not replace; a full disk cuts a file short),
  // the cache holds nothing wrong: it checks each entry's size, and a missing one is a miss. A
  // HOME a test left unwritable only goes without.
  await execa('cp', ['-R', '--no-clobber', `${seed}/.`, target], { reject: false })
    .then(() => writeFile(path.join(target, SEEDED), '', { flag: 'wx' }))
    .catch(() => {});
}
