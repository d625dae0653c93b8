import { type ChildProcess, spawn } from 'node:child_process';
import { BootyError } from '../errors.js';
import { scrubSecrets } from '../secrets/scrub.js';
import { cached, pinnedCommit, remember } from './commit-cache.js';

// Runs git for booty itself (never for generated code). Credentials travel only in the child's
// environment as an HTTP header (GIT_CONFIG_COUNT/KEY/VALUE), handed over the helper's pipe, so
// they never touch .git/config, the command line, or an error message; hooks and fsmonitor are
// off, because generated code has been in the work tree and git must not run anything it finds there.

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

interface Launch {
  args: string[];
  cwd: string | undefined;
  env: Record<string, string>;
  input: string | undefined;
}
/** `overflow`: git wrote more than MAX_OUTPUT and was killed, as execa's maxBuffer did. */
type Exit = Omit<GitRun, 'stopped'> & { overflow?: boolean };

/** No git call booty makes reads this much; one that would is stopped, not held in memory. */
const MAX_OUTPUT = 100 * 1024 * 1024;

function runGit(args: string[], options: GitOptions): Promise<GitRun> {
  const stopper = new AbortController();
  let stopped: string | undefined;
  const stop = (why: string) => {
    stopped ??= why;
    stopper.abort();
  };
  const timer = setTimeout(() => stop('timed out'), options.timeoutMs ?? 15 * 60_000);
  const onAbort = () => stop('aborted');
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const launch: Launch = {
    args: [...HARDENING, ...args],
    cwd: options.cwd,
    env: gitEnv(options),
    input: options.input,
  };
  return (helper() ?? launchHere)(launch, stopper.signal).then((exit) => {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    return { ...exit, stopped: exit.overflow ? `wrote more than ${MAX_OUTPUT} bytes of output` : stopped };
  });
}

/** Starts git from this process. */
function launchHere({ args, cwd, env, input }: Launch, stop: AbortSignal): Promise<Exit> {
  return new Promise((resolve) => {
    const child = spawn('git', args, {
      cwd,
      env,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const kill = () => child.kill('SIGKILL');
    if (stop.aborted) kill();
    stop.addEventListener('abort', kill, { once: true });
    let size = 0;
    let overflow = false;
    child.stdout!.on('data', (b: Buffer) => {
      size += b.length;
      if (size <= MAX_OUTPUT) return void out.push(b);
      overflow = true;
      kill();
    });
    child.stderr!.on('data', (b: Buffer) => err.push(b));
    // A git that exits before reading all its input closes the pipe: its exit code says why.
    child.stdin?.on('error', () => {});
    child.stdin?.end(input);
    let ended = false;
    const done = (code: number | null, spawnError?: Error) => {
      if (ended) return;
      ended = true;
      stop.removeEventListener('abort', kill);
      resolve({
        code,
        stdout: overflow ? Buffer.alloc(0) : Buffer.concat(out),
        stderr: spawnError?.message ?? Buffer.concat(err).toString('utf8'),
        overflow,
      });
    };
    child.on('error', (e) => done(null, e));
    child.on('close', (code) => done(code));
  });
}

// Starting a process blocks the starter's event loop while the kernel copies its page tables,
// and that grows with the process: at booty's size, several milliseconds for each of a job's few
// dozen git calls. So booty's git is started by a small helper process, for one message each way
// on booty's loop. The helper is plain node running SPAWNER; if it cannot start, git is started
// from this process.
const SPAWNER = `
const { spawn } = require('node:child_process');
const running = new Map();
process.on('message', (m) => {
  if (m.kill !== undefined) return void running.get(m.kill)?.kill('SIGKILL');
  const { id, args, cwd, env, input } = m;
  const out = [], err = [];
  let size = 0, overflow = false;
  const finish = (code, error) => {
    if (!running.delete(id)) return;
    const stdout = overflow ? Buffer.alloc(0) : Buffer.concat(out);
    process.send({ id, code, stdout, stderr: error ?? Buffer.concat(err).toString('utf8'), overflow });
  };
  let child;
  try {
    child = spawn('git', args, { cwd, env, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
  } catch (e) {
    return void process.send({ id, code: null, stdout: Buffer.alloc(0), stderr: e.message });
  }
  running.set(id, child);
  child.stdout.on('data', (b) => {
    size += b.length;
    if (size <= ${MAX_OUTPUT}) return void out.push(b);
    overflow = true;
    child.kill('SIGKILL');
  });
  child.stderr.on('data', (b) => err.push(b));
  child.stdin?.on('error', () => {});
  child.stdin?.end(input);
  child.on('error', (e) => finish(null, e.message));
  child.on('close', (code) => finish(code));
});
// booty is gone: so is everything it started.
process.on('disconnect', () => {
  for (const child of running.values()) child.kill('SIGKILL');
  process.exit(0);
});
`;

type Launcher = (launch: Launch, stop: AbortSignal) => Promise<Exit>;

/** The helper's launcher, started on first use; null when it cannot run here. */
let launcher: Launcher | null | undefined;

function helper(): Launcher | null {
  if (launcher === undefined) launcher = startHelper();
  return launcher;
}

function startHelper(): Launcher | null {
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, ['-e', SPAWNER], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'advanced', // output crosses as bytes
      env: { PATH: process.env.PATH ?? '' },
    });
  } catch {
    return null;
  }
  const waiting = new Map<number, { launch: Launch; stop: AbortSignal; resolve: (exit: Exit) => void }>();
  let next = 1;
  // The helper keeps booty alive only while a git call is under way, as a git process would.
  const channel = () => child.channel as { ref(): void; unref(): void } | null | undefined;
  child.unref();
  channel()?.unref();
  const settle = (id: number, exit: Exit) => {
    const call = waiting.get(id);
    waiting.delete(id);
    if (waiting.size === 0) channel()?.unref();
    call?.resolve(exit);
  };
  child.on('error', (e) => {
    if (launcher === self) launcher = child.pid ? undefined : null;
    for (const [id, call] of waiting) {
      // Never started: nothing ran, so the calls go to git directly. Else their fate is unknown.
      if (!child.pid) launchHere(call.launch, call.stop).then((exit) => settle(id, exit));
      else settle(id, { code: null, stdout: Buffer.alloc(0), stderr: `the git helper failed: ${e.message}` });
    }
    // A helper that failed while running is let go: told to leave (it then kills the git it
    // started), or killed when it cannot hear that.
    if (child.pid) {
      try {
        child.disconnect();
      } catch {
        child.kill('SIGKILL');
      }
    }
  });
  child.on('exit', (code, signal) => {
    if (launcher === self) launcher = undefined; // the next call starts a new one
    for (const id of waiting.keys())
      settle(id, {
        code: null,
        stdout: Buffer.alloc(0),
        stderr: `the git helper exited (${signal ?? code})`,
      });
  });
  child.on(
    'message',
    (m: { id: number; code: number | null; stdout: Uint8Array; stderr: string; overflow: boolean }) =>
      settle(m.id, {
        code: m.code,
        stdout: Buffer.from(m.stdout.buffer, m.stdout.byteOffset, m.stdout.byteLength),
        stderr: m.stderr,
        overflow: m.overflow,
      }),
  );
  const self: Launcher = (launch, stop) => {
    if (!child.connected) {
      if (launcher === self) launcher = undefined;
      return launchHere(launch, stop);
    }
    const id = next++;
    return new Promise((resolve) => {
      const kill = () => child.connected && child.send({ kill: id });
      waiting.set(id, {
        launch,
        stop,
        resolve: (exit) => {
          stop.removeEventListener('abort', kill);
          resolve(exit);
        },
      });
      channel()?.ref();
      child.send({ id, ...launch });
      if (stop.aborted) kill();
      stop.addEventListener('abort', kill, { once: true });
    });
  };
  return self;
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

/** Whether the repository at `dir` holds this commit (a fetch brings it when it does not). */
export const hasCommit = async (dir: string, sha: string): Promise<boolean> =>
  (await git(['cat-file', '-t', sha], { cwd: dir, op: 'cat-file' }).catch(() => '')) === 'commit';

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
