import { spawn } from 'node:child_process';
import { BootyError } from '../errors.js';
import { scrubSecrets } from '../secrets/scrub.js';
import { cached, pinnedCommit, remember } from './commit-cache.js';

// Runs git for booty itself (never for generated code). Credentials travel only in the child's
// environment as an HTTP header (GIT_CONFIG_COUNT/KEY/VALUE), so they never touch .git/config,
// the command line, or an error message; hooks and fsmonitor are off, because generated code has
// been in the work tree and git must not run anything it finds there.

export interface GitAuth {
  username: string;
  password: string;
}

export interface GitOptions {
  cwd?: string;
  auth?: GitAuth | null;
  signal?: AbortSignal;
  /** What the command is for, in error messages: clone, fetch, push... */
  op: string;
  /** Talks to the remote: failures are retryable unless they are an auth refusal. */
  remote?: boolean;
  input?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** Keep stdout byte for byte (file contents), instead of trimming its final newline. */
  raw?: boolean;
  /** Settings for this one command, passed in the environment so any key or value is safe. */
  config?: Record<string, string>;
}

// Command-line settings win over any config file, so even a config a test could have written
// runs no hook, no fsmonitor, no credential helper, and no ext:: transport (a shell command).
const HARDENING = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'credential.helper=',
  '-c',
  'protocol.ext.allow=never',
];

const AUTH_REFUSED =
  /Authentication failed|could not read Username|terminal prompts disabled|HTTP Basic: Access denied|The requested URL returned error: 40[13]|Permission to .* denied|Repository not found|Invalid username or password/i;

/** booty's environment minus anything that looks like a secret: git never needs them. */
function gitEnv({ auth, env: extra = {}, config = {} }: GitOptions): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !/TOKEN|SECRET|KEY|PASSWORD|^GIT_CONFIG_/i.test(k)) env[k] = v;
  }
  Object.assign(env, { GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'true', LC_ALL: 'C' }, extra);
  const settings = Object.entries(config);
  if (auth) settings.push(['http.extraHeader', `Authorization: Basic ${basic(auth)}`]);
  settings.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  if (settings.length) env.GIT_CONFIG_COUNT = String(settings.length);
  return env;
}

const basic = (auth: GitAuth) => Buffer.from(`${auth.username}:${auth.password}`).toString('base64');

export const secretsOf = (auth: GitAuth | null | undefined) => (auth ? [auth.password, basic(auth)] : []);

interface GitRun {
  code: number | null;
  stdout: Buffer;
  stderr: string;
  /** Why the process did not finish by itself: a timeout or an abort. */
  stopped?: string;
}

// node's own spawn, not execa: a job makes a few dozen git calls, and each spawn blocks the event
// loop while the process forks, so the wrapper's own cost is kept to nothing.
function runGit(args: string[], options: GitOptions): Promise<GitRun> {
  return new Promise((resolve) => {
    const child = spawn('git', [...HARDENING, ...args], {
      cwd: options.cwd,
      env: gitEnv(options),
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let stopped: string | undefined;
    const stop = (why: string) => {
      stopped ??= why;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop('timed out'), options.timeoutMs ?? 15 * 60_000);
    const onAbort = () => stop('aborted');
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout!.on('data', (b: Buffer) => out.push(b));
    child.stderr!.on('data', (b: Buffer) => err.push(b));
    // A git that exits before reading all its input closes the pipe: its exit code says why.
    child.stdin?.on('error', () => {});
    child.stdin?.end(options.input);
    const done = (code: number | null, spawnError?: Error) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({
        code,
        stdout: Buffer.concat(out),
        stderr: spawnError?.message ?? Buffer.concat(err).toString('utf8'),
        stopped,
      });
    };
    child.on('error', (e) => done(null, e));
    child.on('close', (code) => done(code));
  });
}

/** Runs git; resolves with its stdout as bytes, or rejects with a BootyError naming `op`. */
export async function gitBytes(args: string[], options: GitOptions): Promise<Buffer> {
  const result = await runGit(args, options);
  if (result.code === 0 && !result.stopped) return result.stdout;
  const raw =
    `${result.stopped ? `git ${result.stopped}. ` : ''}${result.stderr || result.stdout.toString('utf8')}`
      .trim()
      .split('\n')
      .slice(-6)
      .join(' | ');
  const reason = scrubSecrets(raw || `exit code ${result.code}`, secretsOf(options.auth)).slice(0, 1_000);
  if (options.remote) {
    if (AUTH_REFUSED.test(raw)) throw new BootyError('BOOTY_E_GIT_AUTH', { op: options.op, reason });
    throw new BootyError('BOOTY_E_GIT_REMOTE', { op: options.op, reason });
  }
  throw new BootyError('BOOTY_E_GIT_FAILED', { op: options.op, reason });
}

export async function git(args: string[], options: GitOptions): Promise<string> {
  const text = (await gitBytes(args, options)).toString('utf8');
  return options.raw ? text : text.replace(/\r?\n$/, '');
}

/**
 * Many objects in one `git cat-file --batch`: each spec (`<rev>:<path>`, a sha) maps to its bytes,
 * or to null where it names nothing. One process however many files a step reads, and none for a
 * file of a commit (`<sha>:<path>`) already read.
 */
export async function readObjects(dir: string, specs: string[]): Promise<Map<string, Buffer | null>> {
  const found = new Map<string, Buffer | null>();
  const asked: string[] = [];
  for (const spec of new Set(specs)) {
    const hit = cached<Buffer | null>(spec);
    found.set(spec, hit ?? null);
    // A spec with a newline cannot be asked for on one line; no git path needs one here.
    if (hit === undefined && !/[\n\r]/.test(spec)) asked.push(spec);
  }
  if (asked.length === 0) return found;
  // The commits themselves are asked too: "missing" for a path is only worth keeping when the
  // commit is there, so a file is known to be absent rather than its commit not yet fetched.
  const commits = [...new Set(asked.map(pinnedCommit).filter((c) => c !== null))];
  const objects = await batchObjects(dir, [...asked, ...commits]);
  for (const spec of asked) {
    const object = objects.get(spec);
    const blob = object?.type === 'blob' ? object.bytes : null;
    const commit = pinnedCommit(spec);
    const known = blob !== null || (commit !== null && objects.get(commit)?.type === 'commit');
    found.set(spec, known ? remember(spec, blob, (blob?.length ?? 0) + spec.length) : blob);
  }
  return found;
}

/** Any objects (blobs, trees, commits) by one `git cat-file --batch`; a spec naming nothing is left out. */
export async function batchObjects(
  dir: string,
  specs: string[],
): Promise<Map<string, { type: string; bytes: Buffer }>> {
  const out = await gitBytes(['cat-file', '--batch'], {
    cwd: dir,
    op: 'cat-file',
    input: `${specs.join('\n')}\n`,
  });
  // Per spec: "<sha> <type> <size>", the bytes and a newline; or one "<spec> missing" line.
  const objects = new Map<string, { type: string; bytes: Buffer }>();
  let at = 0;
  for (const spec of specs) {
    const eol = out.indexOf(0x0a, at);
    if (eol < 0) break;
    const m = /^[0-9a-f]{40,64} (\w+) (\d+)$/.exec(out.subarray(at, eol).toString('utf8'));
    at = eol + 1;
    if (!m) continue;
    const size = Number(m[2]);
    // A copy: a slice would keep the whole batch's output alive in the cache.
    objects.set(spec, { type: m[1]!, bytes: Buffer.from(out.subarray(at, at + size)) });
    at += size + 1;
  }
  return objects;
}

/** The entry names of a raw tree object: "<mode> <name>\0" then the entry's id, `idBytes` long. */
export function treeNames(tree: Buffer, idBytes: number): string[] {
  const names: string[] = [];
  let at = 0;
  while (at < tree.length) {
    const space = tree.indexOf(0x20, at);
    const nul = tree.indexOf(0, space);
    if (space < 0 || nul < 0) break;
    names.push(tree.subarray(space + 1, nul).toString('utf8'));
    at = nul + 1 + idBytes;
  }
  return names;
}

/** NUL-separated paths from git, sorted by code unit. */
export const sortedPaths = (out: string) =>
  out
    .split('\u0000')
    .filter(Boolean)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** Every file path at a commit, kept by commit id once listed (a commit's files never change). */
export async function filesAt(dir: string, ref: string): Promise<string[]> {
  const key = `${ref} files`;
  const known = cached<string[]>(key);
  if (known) return [...known];
  const out = await git(['ls-tree', '-r', '-z', '--name-only', ref], { cwd: dir, op: 'ls-tree' });
  return [...remember(key, sortedPaths(out), out.length)];
}
