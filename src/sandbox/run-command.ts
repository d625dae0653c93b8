import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { BootyError } from '../errors.js';
import { bwrapArgs, probeBwrap, type SandboxMode } from './bwrap.js';
import { OutputCap } from './output-cap.js';
import { groupAlive, signalGroup } from './process-group.js';
import { safeEnv } from './safe-env.js';

// Runs one shell command of the target repository: untrusted code. It gets an allowlisted
// environment, its own process group (killed whole on timeout or abort, and swept when the
// command exits so nothing it started outlives it), capped output, and bubblewrap when available.

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
  /** Paths inside the workspace that stay read-only under bubblewrap (the clone's .git: booty
   * runs git there later, outside the sandbox, so hooks or config written there would escape). */
  readOnly?: string[];
  /** A HOME shared by several commands (install, then test); a fresh temp dir otherwise. */
  home?: string;
  /** Between SIGTERM and SIGKILL. */
  killGraceMs?: number;
  bwrapPath?: string;
  /** Where PATH and LANG come from; everything else in it is ignored. */
  parentEnv?: NodeJS.ProcessEnv;
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
  sandbox: 'bwrap' | 'none';
}

export const DEFAULT_OUTPUT_CAP = 1024 * 1024;

export async function chooseSandbox(mode: SandboxMode, bin = 'bwrap'): Promise<'bwrap' | 'none'> {
  if (mode === 'off') return 'none';
  const probe = await probeBwrap(bin);
  if (probe.ok) return 'bwrap';
  if (mode === 'required') throw new BootyError('BOOTY_E_SANDBOX_UNAVAILABLE', { reason: probe.reason });
  return 'none';
}

export async function runCommand(options: RunCommandOptions): Promise<CommandResult> {
  const { cwd, command, timeoutMs, signal } = options;
  const graceMs = options.killGraceMs ?? 2_000;
  const bin = options.bwrapPath ?? 'bwrap';
  const sandbox = await chooseSandbox(options.sandbox, bin);
  const ownHome = options.home === undefined;
  const home = options.home ?? (await mkdtemp(path.join(tmpdir(), 'booty-home-')));
  const cap = new OutputCap(options.outputCapBytes ?? DEFAULT_OUTPUT_CAP);
  const started = performance.now();
  let timedOut = false;
  let aborted = false;
  const timers: NodeJS.Timeout[] = [];

  const [file, args] =
    sandbox === 'bwrap'
      ? [
          bin,
          [
            ...bwrapArgs({
              writable: [options.workspace ?? cwd, home],
              readOnly: (options.readOnly ?? []).filter((p) => existsSync(p)),
              cwd,
              network: options.network,
            }),
            '/bin/sh',
            '-c',
            command,
          ],
        ]
      : ['/bin/sh', ['-c', command]];

  try {
    if (signal?.aborted) aborted = true;
    const child = execa(file, args, {
      cwd,
      env: safeEnv(home, options.parentEnv),
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
    const output = cap.result();
    return {
      exitCode: result.exitCode ?? null,
      signal: result.signal ?? null,
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
