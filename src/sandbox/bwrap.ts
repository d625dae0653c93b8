import { execa } from 'execa';

// bubblewrap: the filesystem read-only except the workspace and a scratch HOME, a private /tmp,
// its own pid namespace (so the kernel kills every process in it when the command ends), no
// network for tests, and every capability dropped (booty often runs as root in a container, and a
// root with CAP_SYS_ADMIN could remount / read-write inside its mount namespace).

export type SandboxMode = 'auto' | 'required' | 'off';

export interface BwrapMounts {
  /** Directories the command may write: the workspace and its HOME. */
  writable: string[];
  /** Bound read-only on top of the writable ones. */
  readOnly?: string[];
  cwd: string;
  network: boolean;
}

export function bwrapArgs({ writable, readOnly = [], cwd, network }: BwrapMounts): string[] {
  const args = [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    '--tmpfs',
    '/var/tmp',
    '--tmpfs',
    '/dev/shm',
  ];
  // After the tmpfs mounts, so a workspace under /tmp is bound back on top of them.
  for (const dir of writable) args.push('--bind', dir, dir);
  for (const p of readOnly) args.push('--ro-bind', p, p);
  args.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try');
  if (!network) args.push('--unshare-net');
  args.push('--die-with-parent', '--cap-drop', 'ALL', '--chdir', cwd, '--');
  return args;
}

export interface BwrapProbe {
  ok: boolean;
  reason: string;
}

const probes = new Map<string, Promise<BwrapProbe>>();

/** Whether this bwrap binary can actually build the sandbox here (user namespaces may be off). */
export function probeBwrap(bin = 'bwrap'): Promise<BwrapProbe> {
  let probe = probes.get(bin);
  if (!probe) {
    probe = execa(bin, [...bwrapArgs({ writable: [], cwd: '/', network: false }), 'true'], {
      reject: false,
      timeout: 10_000,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      extendEnv: false,
      stdin: 'ignore',
    }).then(
      (r): BwrapProbe =>
        r.exitCode === 0
          ? { ok: true, reason: 'ok' }
          : {
              ok: false,
              reason: r.failed && r.exitCode === undefined ? `${bin} is not installed` : firstLine(r.stderr),
            },
      (err: unknown): BwrapProbe => ({ ok: false, reason: String(err) }),
    );
    probes.set(bin, probe);
  }
  return probe;
}

const firstLine = (s: unknown) =>
  String(s ?? '')
    .split('\n')[0]
    ?.trim() || 'bwrap exited non-zero';
