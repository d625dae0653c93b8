import { accessSync, constants } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The syscall filter of the sandbox: seccomp/filter.c lists what a test may not ask of the kernel
// (ptrace, mount, keyctl, bpf, new namespaces, kernel modules and the like, as Docker's default
// profile refuses them), and libseccomp builds it into seccomp/filter.bpf, which ships with booty.
// bubblewrap loads it with `--seccomp 3` as the last step before the command. The filter is part
// of the wall: where it is missing, or does not cover this machine's architecture, bubblewrap is
// not used, and the sandbox is unavailable for a reason that says so.

/** Node's names for the architectures the filter holds (x86_64 with x86 and x32, aarch64 with arm). */
const COVERED = new Set(['x64', 'ia32', 'arm64', 'arm']);

export const FILTER_PATH = fileURLToPath(new URL('./seccomp/filter.bpf', import.meta.url));

export type SeccompFilter = { ok: true; path: string } | { ok: false; reason: string };

/** The filter for this machine, or why there is none. */
export function seccompFilter(arch: string = process.arch, file = FILTER_PATH): SeccompFilter {
  if (!COVERED.has(arch)) {
    return { ok: false, reason: `booty's seccomp filter has no rules for this architecture (${arch})` };
  }
  try {
    accessSync(file, constants.R_OK);
  } catch {
    return {
      ok: false,
      reason: `booty's seccomp filter ${file} is missing: reinstall booty, or build it with \`npm run seccomp\``,
    };
  }
  return { ok: true, path: file };
}

/**
 * The command line that starts bubblewrap with the filter open on descriptor 3: a shell opens it
 * and becomes bwrap, so no descriptor of booty's own crosses into the sandbox.
 */
export const withFilterOnFd3 = (filter: string, bin: string, args: string[]): [string, string[]] => [
  '/bin/sh',
  ['-c', 'exec 3<"$0" && exec "$@"', filter, bin, ...args],
];
