// booty's seccomp filter for the test sandbox, built by libseccomp and written as the BPF program
// bubblewrap loads with `--seccomp FD` (bwrap applies it last, after building the sandbox, so
// its own mounts and namespaces are untouched; the command and all it starts run under it).
//
// Every syscall is allowed but those below, in the spirit of Docker's default profile for a
// process without capabilities: they debug or read other processes, mount, reach the kernel's
// keyrings, load BPF or kernel modules, make namespaces (a new user namespace would give the
// code back the capabilities bubblewrap dropped), or change the machine (time, swap, reboot).
// No test of node, python, go or cargo needs one. Each fails with EPERM, as without the
// privilege; clone3 fails with ENOSYS, because its flags are out of the filter's sight in
// memory, so that the C library falls back to clone, whose flags the filter reads.
//
// One filter holds every architecture booty runs on: x86_64 with its 32-bit and x32 tables,
// aarch64 with arm; a syscall is denied in each table that has it. Any other architecture
// kills the process (booty does not use the filter there: seccomp.ts).
//
// Regenerate with `npm run seccomp` (gcc and libseccomp-dev); a test checks that the committed
// filter.bpf is exactly what this file builds.

#define _GNU_SOURCE // the CLONE_NEW* flags

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char *const DENIED[] = {
    // Other processes: debugging, reading and writing their memory, taking their descriptors.
    "ptrace", "process_vm_readv", "process_vm_writev", "process_madvise", "pidfd_getfd", "kcmp",
    // Mounts, old and new API, and changing the root.
    "mount", "umount", "umount2", "fsopen", "fsconfig", "fsmount", "fspick", "open_tree",
    "move_mount", "mount_setattr", "pivot_root", "chroot",
    // The kernel's keyrings.
    "keyctl", "add_key", "request_key",
    // BPF programs, performance counters, page-fault handling in user space.
    "bpf", "perf_event_open", "userfaultfd",
    // Namespaces: joining one, or leaving the sandbox's (clone's namespace flags are below).
    "setns", "unshare",
    // Kernel modules, another kernel, the machine's power and swap.
    "init_module", "finit_module", "delete_module", "create_module", "get_kernel_syms",
    "query_module", "kexec_load", "kexec_file_load", "reboot", "swapon", "swapoff",
    // Files by handle (the shocker escape), filesystem-wide notification, quotas.
    "open_by_handle_at", "fanotify_init", "quotactl", "quotactl_fd",
    // The clock, the kernel log, process accounting, I/O ports.
    "settimeofday", "stime", "clock_settime", "clock_settime64", "clock_adjtime",
    "clock_adjtime64", "syslog", "acct", "iopl", "ioperm",
    // io_uring: a second way into the kernel that Docker has stopped allowing too.
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    // Obsolete interfaces with a history of holes.
    "lookup_dcookie", "nfsservctl", "uselib", "ustat", "sysfs", "_sysctl", "vm86", "vm86old",
};

/** clone's flags that make a namespace: any of them is refused. */
static const unsigned long NAMESPACES[] = {
    CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWCGROUP,
};

static const uint32_t ARCHES[] = {
    SCMP_ARCH_X86_64, SCMP_ARCH_X86, SCMP_ARCH_X32, SCMP_ARCH_AARCH64, SCMP_ARCH_ARM,
};

static void check(int rc, const char *what) {
  if (rc < 0) {
    fprintf(stderr, "seccomp filter: %s: error %d\n", what, rc);
    exit(1);
  }
}

static int syscall_number(const char *name) {
  int nr = seccomp_syscall_resolve_name(name);
  if (nr == __NR_SCMP_ERROR) {
    fprintf(stderr, "seccomp filter: libseccomp does not know the syscall %s\n", name);
    exit(1);
  }
  return nr;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <output.bpf>\n", argv[0]);
    return 2;
  }
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (!ctx) check(-1, "init");
  check(seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS), "bad-arch action");
  for (size_t i = 0; i < sizeof ARCHES / sizeof ARCHES[0]; i++) {
    int rc = seccomp_arch_add(ctx, ARCHES[i]);
    if (rc != -EEXIST) check(rc, "arch");
  }
  for (size_t i = 0; i < sizeof DENIED / sizeof DENIED[0]; i++) {
    check(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), syscall_number(DENIED[i]), 0), DENIED[i]);
  }
  for (size_t i = 0; i < sizeof NAMESPACES / sizeof NAMESPACES[0]; i++) {
    check(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), syscall_number("clone"), 1,
                           SCMP_A0(SCMP_CMP_MASKED_EQ, NAMESPACES[i], NAMESPACES[i])),
          "clone");
  }
  check(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), syscall_number("clone3"), 0), "clone3");

  int fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    perror(argv[1]);
    return 1;
  }
  check(seccomp_export_bpf(ctx, fd), "export");
  seccomp_release(ctx);
  return close(fd) == 0 ? 0 : 1;
}
