import { type Probe, probe } from './probe.js';

// The floor for a test run when the operator turned the sandbox off: util-linux's unshare puts the
// command in a new pid namespace (when its first process exits, the kernel kills every other one
// in it, setsid and double-forked ones too) and a new mount namespace where the clone's .git is
// bound read-only. setpriv then drops every capability, so the command cannot remount it back.
// Not a wall: the filesystem and the network stay the host's.

const asRoot = process.getuid?.() === 0;

/** unshare's own flags: as root directly, otherwise inside a user namespace mapped to root. */
const FLAGS = [
  ...(asRoot ? [] : ['--user', '--map-root-user']),
  '--pid',
  '--fork',
  '--kill-child',
  '--mount',
  '--propagation',
  'private',
  '--mount-proc',
];

const SCRIPT = [
  'cmd=$1; shift',
  'for d in "$@"; do mount --bind "$d" "$d" && mount -o remount,bind,ro "$d" || exit 125; done',
  'exec setpriv --bounding-set=-all --inh-caps=-all --no-new-privs -- /bin/sh -c "$cmd"',
].join('\n');

export function unshareArgs(input: { command: string; readOnly: readonly string[] }): [string, string[]] {
  return ['unshare', [...FLAGS, '--', '/bin/sh', '-c', SCRIPT, 'sh', input.command, ...input.readOnly]];
}

/** Whether unshare and setpriv work here (they need root or unprivileged user namespaces). */
export const probeUnshare = (): Promise<Probe> => probe(...unshareArgs({ command: 'true', readOnly: [] }));
