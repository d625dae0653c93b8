import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { BootyError } from '../errors.js';
import { bwrapCommand, probeBwrap, type SandboxMode } from './bwrap.js';
import { OutputCap } from './output-cap.js';
import { groupAlive, groupGone, signalGroup } from './process-group.js';
import { safeEnv } from './safe-env.js';
import { FILTER_PATH } from './seccomp.js';
import { detectToolchains, type Toolchains } from './toolchains.js';
import { probeUnshare, unshareArgs } from './unshare.js';

// Runs one shell command of the target repository: untrusted code. It gets a scrubbed environment,
// its own process group (killed whole on timeout or abort, and swept when the command exits), capped
// output, and a wall: bubblewrap when it is there. Where the operator turned the sandbox off, it
// still gets a pid namespace (so every descendant dies with it, setsid or not) and a read-only .git,
// through unshare.

export type Containment = 'bwrap' | 'unshare' | 'none';

export interface RunCommandOptions {
  cwd: string;
  command: string;
  timeoutMs: number;
  sandbox: SandboxMode;
  /** Tests run without network; an install step may have it. Only enforced under bubblewrap. */
  network: boolean;
  signal?: AbortSignal;
  outputCapBytes?: number;
  /** The directory the command may write; defaults to cwd. */
  workspace?: string;
  /** Paths inside the workspace that stay read-only (the clone's .git: booty runs git there later,
   * outside the sandbox, so hooks or config written there would escape). */
  readOnly?: string[];
  /** A HOME kept for the job (install, then every test run); a fresh temp dir otherwise. */
  home?: string;
  /** Variables added to the scrubbed environment: reporter settings, scripts-off switches. */
  env?: Record<string, string>;
  /** Directories bound read-only besides the detected toolchains (BOOTY_SANDBOX_RO_PATHS). */
  roPaths?: readonly string[];
  /** Between SIGTERM and SIGKILL. */
  killGraceMs?: number;
  bwrapPath?: string;
  /** Where PATH and the toolchains come from; nothing else in it reaches the command. */
  parentEnv?: NodeJS.ProcessEnv;
  /** Variables the operator passes in (BOOTY_SANDBOX_ENV), those booty has. */
  passEnv?: Readonly<Record<string, string>>;
  /** Called with the process group id once the command starts. */
  onStart?: (pgid: number) => void;
}

export interface CommandResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  output: string;
  outputBytes: number;
  truncated: boolean;
  sandbox: Containment;
}

export const DEFAULT_OUTPUT_CAP = 1024 * 1024;

/** How a command will be contained under this mode, or BOOTY_E_SANDBOX_UNAVAILABLE for `required`. */
export async function chooseSandbox(mode: SandboxMode, bin = 'bwrap'): Promise<Containment> {
  if (mode !== 'off') {
    const probe = await probeBwrap(bin);
    if (probe.ok) return 'bwrap';
    if (mode === 'required') throw new BootyError('BOOTY_E_SANDBOX_UNAVAILABLE', { reason: probe.reason });
  }
  return (await probeUnshare()).ok ? 'unshare' : 'none';
}

const toolchainCache = new Map<string, Toolchains>();
function toolchainsFor(parent: NodeJS.ProcessEnv, extra: readonly string[]): Toolchains {
  const key = `${parent.PATH}\0${parent.RUSTUP_HOME}\0${parent.PYENV_ROOT}\0${extra.join(':')}`;
  let found = toolchainCache.get(key);
  if (!found) {
    found = detectToolchains(parent, extra);
    toolchainCache.set(key, found);
  }
  return found;
}

export async function runCommand(options: RunCommandOptions): Promise<CommandResult> {
  const { cwd, command, timeoutMs, signal } = options;
  const graceMs = options.killGraceMs ?? 2_000;
  const bin = options.bwrapPath ?? 'bwrap';
  const sandbox = await chooseSandbox(options.sandbox, bin);
  const ownHome = options.home === undefined;
  const home = options.home ?? (await mkdtemp(path.join(tmpdir(), 'booty-home-')));
  const parent = options.parentEnv ?? process.env;
  const toolchains = toolchainsFor(parent, options.roPaths ?? []);
  const readOnly = (options.readOnly ?? []).filter((p) => existsSync(p));
  const cap = new OutputCap(options.outputCapBytes ?? DEFAULT_OUTPUT_CAP);
  const started = performance.now();
  let timedOut = false;
  let aborted = false;
  const timers: NodeJS.Timeout[] = [];

  // One pipe for both streams: read from two pipes, a tool's stderr lines (cargo's "Running
  // tests/x.rs") and its stdout lines arrive out of order, and the report reads them in order.
  const script = `exec 2>&1\n${command}`;
  const [file, args] =
    sandbox === 'bwrap'
      ? bwrapCommand(
          bin,
          FILTER_PATH,
          {
            writable: [options.workspace ?? cwd, home],
            readOnly,
            toolchains: toolchains.paths,
            cwd,
            network: options.network,
          },
          ['/bin/sh', '-c', script],
        )
      : sandbox === 'unshare'
        ? unshareArgs({ command: script, readOnly })
        : ['/bin/sh', ['-c', script]];

  try {
    if (signal?.aborted) aborted = true;
    const child = execa(file, args, {
      cwd,
      env: { ...safeEnv(home, toolchains.env), ...options.passEnv, ...options.env },
      extendEnv: false,
      detached: true,
      stdin: 'ignore',
      buffer: false,
      all: true,
      encoding: 'buffer',
      reject: false,
    });
    const pgid = child.pid;
    child.all?.on('data', (chunk: Buffer) => cap.push(chunk));

    const terminate = () => {
      if (pgid === undefined) return;
      signalGroup(pgid, 'SIGTERM');
      timers.push(setTimeout(() => signalGroup(pgid, 'SIGKILL'), graceMs));
    };
    const onAbort = () => {
      aborted = true;
      terminate();
    };
    if (pgid !== undefined) {
      options.onStart?.(pgid);
      if (aborted) terminate();
      timers.push(
        setTimeout(() => {
          timedOut = true;
          terminate();
        }, timeoutMs),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
      child.on('exit', () => {
        // Whatever the command left running in its group goes with it.
        if (groupAlive(pgid)) signalGroup(pgid, 'SIGKILL');
        // A process that left the group with setsid may still hold the pipe open: stop reading.
        timers.push(
          setTimeout(() => {
            child.stdout?.destroy();
            child.stderr?.destroy();
          }, graceMs),
        );
      });
    }
    const result = await child;
    signal?.removeEventListener('abort', onAbort);
    if (pgid !== undefined) await groupGone(pgid, graceMs);
    const output = cap.result();
    // A command booty stopped has no exit status of its own: under unshare the outer process
    // ignores SIGTERM and passes on whatever the command's shell made of it, even 0.
    const stopped = timedOut || aborted;
    return {
      exitCode: stopped ? null : (result.exitCode ?? null),
      signal: stopped ? (result.signal ?? 'SIGTERM') : (result.signal ?? null),
      timedOut,
      aborted,
      durationMs: Math.round(performance.now() - started),
      output: pgid === undefined ? String(result.message ?? 'failed to start') : output.text,
      outputBytes: output.totalBytes,
      truncated: output.truncated,
      sandbox,
    };
  } finally {
    for (const t of timers) clearTimeout(t);
    if (ownHome) await rm(home, { recursive: true, force: true });
  }
}
