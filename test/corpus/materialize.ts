import { execFile } from 'node:child_process';
import { chmod, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { alive } from '../support/process-alive.js';

// Turns a folder of test/corpus/repos into a real git repository, and installs the JS runners the
// corpus repositories link from a shared folder (so their install step needs no network).

const run = promisify(execFile);

export const CORPUS_DIR = path.dirname(fileURLToPath(import.meta.url));
export const REPOS_DIR = path.join(CORPUS_DIR, 'repos');
export const DEPS_DIR = path.join(CORPUS_DIR, '.deps');

/**
 * Exact versions, each in `.deps/<runner>/node_modules`. vitest 5 needs Node 22; 4.1.12 is the
 * newest that runs on Node 20 (and is booty's own). ava 8 does not install here (a package it
 * needs is not served): 7.0.0. bun and deno come as npm packages whose binary is an optional
 * dependency for the platform.
 */
export const RUNNERS = {
  vitest: '4.1.12',
  jest: '30.5.2',
  mocha: '12.0.3',
  uvu: '0.5.6',
  ava: '7.0.0',
  tape: '5.10.2',
  tap: '21.8.0',
  jasmine: '7.0.0',
  playwright: '1.65.1',
  bun: '1.4.5',
  deno: '2.9.6',
} as const;
export type Runner = keyof typeof RUNNERS;

/** The npm package of a runner whose folder is not named after it. */
const PACKAGE: Partial<Record<Runner, string>> = { playwright: '@playwright/test' };

const MARKER = 'corpus-deps.json';
const LOCK_STALE_MS = 10 * 60_000;

async function installedVersion(runner: Runner): Promise<string | null> {
  const text = await readFile(path.join(DEPS_DIR, runner, MARKER), 'utf8').catch(() => null);
  return text ? (JSON.parse(text) as { version: string }).version : null;
}

async function missing(): Promise<Runner[]> {
  const runners = Object.keys(RUNNERS) as Runner[];
  const versions = await Promise.all(runners.map(installedVersion));
  return runners.filter((r, i) => versions[i] !== RUNNERS[r]);
}

/** Installs into a staging folder, then renames it into place: a reader never sees half a tree. */
async function install(runner: Runner): Promise<void> {
  const target = path.join(DEPS_DIR, runner);
  const staging = `${target}.installing`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  const version = RUNNERS[runner];
  await writeFile(
    path.join(staging, 'package.json'),
    `${JSON.stringify({ private: true, dependencies: { [PACKAGE[runner] ?? runner]: version } }, null, 2)}\n`,
  );
  // No lockfile: one written here would pin this platform's optional packages (rollup's) only.
  await run('npm', ['install', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: staging,
    maxBuffer: 16 * 1024 * 1024,
  });
  await writeFile(path.join(staging, MARKER), `${JSON.stringify({ runner, version })}\n`);
  await rm(target, { recursive: true, force: true });
  await rename(staging, target);
}

/** A lock between processes (vitest runs test files in parallel forks): a directory holding a pid. */
async function withLock<T>(lock: string, fn: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const pid = Number(await readFile(path.join(lock, 'pid'), 'utf8').catch(() => '0'));
    const age = Date.now() - (await stat(lock).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
    if ((pid > 0 && !alive(pid)) || age > LOCK_STALE_MS) {
      await rm(lock, { recursive: true, force: true });
      continue;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  try {
    await writeFile(path.join(lock, 'pid'), String(process.pid));
    return await fn();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

let deps: Promise<string> | undefined;

/** Installs the JS runners once per machine; the folder holding `<runner>/node_modules`. */
export function corpusDeps(): Promise<string> {
  deps ??= (async () => {
    await mkdir(DEPS_DIR, { recursive: true });
    if ((await missing()).length > 0) {
      await withLock(path.join(DEPS_DIR, '.lock'), async () => {
        // Another process may have installed them while this one waited.
        await Promise.all((await missing()).map(install));
      });
    }
    return DEPS_DIR;
  })().catch((err) => {
    deps = undefined;
    throw err;
  });
  return deps;
}

/** Scripts a corpus repository calls that live on the host, outside any repository. */
const HOST_TOOLS: Record<string, Record<string, string>> = {
  'pytest-tool-unreachable': {
    'corpus-tool': `#!/bin/sh
# The host's project checker.
case "$1" in
  check) shift; exec pytest "$@" ;;
  *) echo "usage: corpus-tool check" >&2; exit 2 ;;
esac
`,
  },
};

let toolchain: Promise<string | undefined> | undefined;

/**
 * rustup's `cargo` proxy finds its toolchain through $HOME/.rustup, which a fresh HOME hides
 * ("rustup could not choose a version of cargo to run"): put the toolchain's own bin first.
 */
function rustToolchainBin(): Promise<string | undefined> {
  toolchain ??= run('rustup', ['which', 'cargo']).then(
    ({ stdout }) => path.dirname(stdout.trim()),
    () => undefined,
  );
  return toolchain;
}

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = path.posix.join(prefix, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(dir, rel)));
    else if (entry.isFile()) out.push(rel);
  }
  return out.sort();
}

const gitEnv = () => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_AUTHOR_NAME: 'Corpus',
    GIT_AUTHOR_EMAIL: 'corpus@example.test',
    GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z',
    GIT_COMMITTER_NAME: 'Corpus',
    GIT_COMMITTER_EMAIL: 'corpus@example.test',
    GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z',
    GIT_CONFIG_NOSYSTEM: '1',
  };
  for (const key of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE']) delete env[key];
  return env;
};

const git = (cwd: string, ...args: string[]) =>
  run('git', ['-c', 'commit.gpgsign=false', '-c', 'core.autocrlf=false', ...args], { cwd, env: gitEnv() });

/**
 * Copies test/corpus/repos/<repo> into `<into>/<repo>` (new) as a git repository with one commit on
 * `main` (fixed author and dates, every file 0644, so the sha depends only on the content and the
 * deps path). `extraPath` is a directory the repository's commands expect on PATH: host tools in
 * `<into>/<repo>.host-tools` (which a sandbox must not bind), or the Rust toolchain's bin (which
 * it must). Removing `into` removes everything this made.
 */
export async function materializeRepo(
  repo: string,
  into: string,
  vars: { deps: string; forge?: 'github' | 'gitlab' },
): Promise<{ dir: string; extraPath?: string }> {
  const source = path.join(REPOS_DIR, repo);
  const files = await listFiles(source);
  if (files.length === 0) throw new Error(`no corpus repository ${repo} in ${REPOS_DIR}`);
  const dir = path.join(into, repo);
  await mkdir(into, { recursive: true });
  await mkdir(dir); // throws if `into` already holds this repository
  for (const rel of files) {
    let content = await readFile(path.join(source, rel), 'utf8');
    if (rel === '.github/booty.yml') content = content.replaceAll('{{DEPS}}', vars.deps);
    // On GitLab the same settings live in .gitlab/booty.yml.
    const to = vars.forge === 'gitlab' && rel === '.github/booty.yml' ? '.gitlab/booty.yml' : rel;
    await mkdir(path.dirname(path.join(dir, to)), { recursive: true });
    await writeFile(path.join(dir, to), content, { mode: 0o644 });
    await chmod(path.join(dir, to), 0o644);
  }
  await git(dir, 'init', '--quiet', '--initial-branch=main');
  await git(dir, 'add', '--all');
  await git(dir, 'commit', '--quiet', '--no-verify', '-m', `${repo}: base`);

  const tools = HOST_TOOLS[repo];
  if (tools) {
    // Beside the repository, not in it: removed with `into`, and bound by no sandbox.
    const bin = path.join(into, `${repo}.host-tools`);
    await mkdir(bin);
    for (const [name, script] of Object.entries(tools)) {
      await writeFile(path.join(bin, name), script, { mode: 0o755 });
    }
    return { dir, extraPath: bin };
  }
  if (files.includes('Cargo.toml')) {
    const bin = await rustToolchainBin();
    return bin ? { dir, extraPath: bin } : { dir };
  }
  return { dir };
}
