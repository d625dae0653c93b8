import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { type Probe, probe } from './probe.js';
import { seccompFilter, withFilterOnFd3 } from './seccomp.js';

// bubblewrap, binding only what a test needs: the system's program and library directories, a
// few files under /etc (certificates, name service, the dynamic linker's cache), the toolchains
// booty detected, and the job's workspace and HOME. Everything else (the rest of /etc with
// /etc/shadow, /root, /home, the service's own directory, other jobs' workspaces) does not exist
// inside. /tmp, /dev and /proc are private, the pid namespace is new (so every process in it dies
// with the command), tests have no network, and every capability is dropped: booty often runs as
// root in a container, and root with CAP_SYS_ADMIN could remount its way out. Last, a seccomp
// filter (seccomp.ts) refuses the syscalls no test needs: ptrace, mount, keyctl, bpf, namespaces.

export type SandboxMode = 'auto' | 'required' | 'off';

/** Top-level system directories: bound read-only, or recreated as the symlinks they are (merged /usr). */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/** What under /etc programs need to run, resolve names, verify TLS and find their package registry. */
export const ETC_FILES = [
  '/etc/alternatives',
  '/etc/ssl',
  '/etc/ca-certificates',
  '/etc/ca-certificates.conf',
  '/etc/pki',
  '/etc/resolv.conf',
  '/etc/hosts',
  '/etc/host.conf',
  '/etc/nsswitch.conf',
  '/etc/gai.conf',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/localtime',
  '/etc/timezone',
  '/etc/passwd',
  '/etc/group',
  '/etc/mime.types',
  '/etc/protocols',
  '/etc/services',
  '/etc/pip.conf',
  '/etc/xdg/pip',
  '/etc/npmrc',
  // PHP's php.ini and the conf.d that loads its extensions (dom, mbstring, xml: PHPUnit needs them).
  '/etc/php',
];

export interface BwrapMounts {
  /** Directories the command may write: the workspace and its HOME. */
  writable: string[];
  /** Bound read-only on top of the writable ones (the clone's .git). */
  readOnly?: string[];
  /** Toolchains and the operator's extra paths, read-only. */
  toolchains?: string[];
  cwd: string;
  network: boolean;
}

function systemBinds(): string[] {
  const args: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    const stat = lstatSync(dir, { throwIfNoEntry: false });
    if (!stat) continue;
    if (stat.isSymbolicLink()) args.push('--symlink', readlinkSync(dir), dir);
    else args.push('--ro-bind', dir, dir);
  }
  for (const file of ETC_FILES) {
    // A symlinked /etc/resolv.conf points into /run, which is not bound: bind its target.
    if (existsSync(file)) args.push('--ro-bind', realpathSync(file), file);
  }
  return args;
}

let system: string[] | null = null;

export function bwrapArgs({ writable, readOnly = [], toolchains = [], cwd, network }: BwrapMounts): string[] {
  system ??= systemBinds();
  const args = [...system];
  args.push(
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
  );
  // After the tmpfs mounts, so a toolchain or a workspace under /tmp is bound back on top of them.
  for (const dir of toolchains) if (existsSync(dir)) args.push('--ro-bind', dir, dir);
  for (const dir of writable) args.push('--bind', dir, dir);
  for (const p of readOnly) args.push('--ro-bind', p, p);
  // The root itself is bwrap's scratch tmpfs: read-only, so the only writable places are the binds.
  args.push('--remount-ro', '/');
  args.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try');
  if (!network) args.push('--unshare-net');
  // The filter is read from descriptor 3 (bwrapCommand opens it there).
  args.push('--die-with-parent', '--cap-drop', 'ALL', '--seccomp', '3', '--chdir', cwd, '--');
  return args;
}

/** The command line that runs `command` in the sandbox, under the seccomp filter at `filter`. */
export const bwrapCommand = (bin: string, filter: string, mounts: BwrapMounts, command: string[]) =>
  withFilterOnFd3(filter, bin, [...bwrapArgs(mounts), ...command]);

/**
 * Whether this bwrap binary can build the whole sandbox here, seccomp filter included: it is
 * installed, the filter is there for this machine, and the kernel lets it (user namespaces may be off).
 */
export async function probeBwrap(bin = 'bwrap', filter = seccompFilter()): Promise<Probe> {
  const installed = await probe(bin, ['--version']);
  if (!installed.ok) return installed;
  if (!filter.ok) return filter;
  return probe(...bwrapCommand(bin, filter.path, { writable: [], cwd: '/', network: false }, ['true']));
}
