import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { BootyError } from '../../src/errors.js';
import { bwrapArgs, probeBwrap } from '../../src/sandbox/bwrap.js';
import { runCommand } from '../../src/sandbox/run-command.js';
import { FILTER_PATH, seccompFilter, withFilterOnFd3 } from '../../src/sandbox/seccomp.js';

// The sandbox's seccomp filter: built by libseccomp from src/sandbox/seccomp/filter.c, loaded by
// bubblewrap before every command. What it refuses is refused inside the sandbox, where bubblewrap
// alone allows it (the control); what tests do, they still do.

const dirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'booty-seccomp-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const repo = path.resolve(import.meta.dirname, '../..');

/** Calls each syscall the filter refuses, harmlessly, and prints its errno name or `ok`. */
const CALLS = `
import ctypes, errno, os
libc = ctypes.CDLL(None, use_errno=True)
NR = {'x86_64': {'keyctl': 250, 'bpf': 321}, 'aarch64': {'keyctl': 219, 'bpf': 280}}[os.uname().machine]
def show(name, result):
    print(name, 'ok' if result >= 0 else errno.errorcode[ctypes.get_errno()])
show('ptrace', libc.ptrace(0, 0, None, None))                     # PTRACE_TRACEME
show('unshare-user', libc.unshare(0x10000000))                    # CLONE_NEWUSER
show('mount', libc.mount(b'none', b'/tmp', b'tmpfs', 0, None))
show('keyctl', libc.syscall(NR['keyctl'], 0, -3, 0))              # the session keyring's id
show('bpf', libc.syscall(NR['bpf'], 0, None, 0))                  # BPF_MAP_CREATE, no attributes
`;

const python = () =>
  execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();

/** What each call printed, as a map. */
const results = (output: string) =>
  Object.fromEntries(
    output
      .split('\n')
      .map((l) => l.split(' '))
      .filter((w) => w.length === 2),
  );

describe('the seccomp filter', () => {
  it('is exactly what filter.c builds with libseccomp', () => {
    const built = path.join(tempDir(), 'filter.bpf');
    execFileSync('node', [path.join(repo, 'scripts/seccomp-filter.mjs'), built], { stdio: 'pipe' });
    expect(fs.readFileSync(built).equals(fs.readFileSync(FILTER_PATH))).toBe(true);
    expect(seccompFilter()).toEqual({ ok: true, path: FILTER_PATH });
  });

  it('refuses ptrace, a new user namespace, mount, keyctl and bpf inside the sandbox, which bubblewrap alone allows', async () => {
    const cwd = tempDir();
    fs.writeFileSync(path.join(cwd, 'calls.py'), CALLS);
    const py = python();
    const toolchain = path.dirname(path.dirname(fs.realpathSync(py)));
    // The control: the same wall without the filter.
    const wall = bwrapArgs({ writable: [cwd], toolchains: [toolchain], cwd, network: false });
    wall.splice(wall.indexOf('--seccomp'), 2);
    const control = await execa('bwrap', [...wall, py, 'calls.py'], { reject: false, all: true });
    expect(results(String(control.all))).toMatchObject({ ptrace: 'ok', 'unshare-user': 'ok', keyctl: 'ok' });

    const run = await runCommand({
      cwd,
      command: `${py} calls.py; unshare --user true || echo unshare-command refused`,
      timeoutMs: 20_000,
      sandbox: 'required',
      network: false,
      roPaths: [toolchain],
    });
    expect(run.sandbox).toBe('bwrap');
    expect(results(run.output)).toEqual({
      ptrace: 'EPERM',
      'unshare-user': 'EPERM',
      mount: 'EPERM',
      keyctl: 'EPERM',
      bpf: 'EPERM',
      'unshare-command': 'refused',
    });
  });

  it('lets tests do what tests do: threads, child processes, files, worker threads', async () => {
    const cwd = tempDir();
    const node = `node -e "
      const { Worker } = require('node:worker_threads');
      const out = require('node:child_process').execFileSync('sh', ['-c', 'echo child']).toString().trim();
      require('node:fs').writeFileSync('f.txt', out);
      new Worker('require(\\'node:worker_threads\\').parentPort.postMessage(6 * 7)', { eval: true })
        .on('message', (n) => console.log('node', require('node:fs').readFileSync('f.txt', 'utf8'), n));
    "`;
    const py = `python3 -c "
import subprocess, threading, multiprocessing
t = threading.Thread(target=lambda: None); t.start(); t.join()
with multiprocessing.Pool(2) as p: squares = p.map(abs, [-1, -2])
print('python', subprocess.run(['echo', 'child'], capture_output=True, text=True).stdout.strip(), squares)
"`;
    const run = await runCommand({
      cwd,
      command: `${node} && ${py}`,
      timeoutMs: 30_000,
      sandbox: 'required',
      network: false,
    });
    expect(run).toMatchObject({ exitCode: 0, sandbox: 'bwrap' });
    expect(run.output).toContain('node child 42');
    expect(run.output).toContain('python child [1, 2]');
  });

  it('is part of the wall: without it for this machine, bubblewrap is not used, and a required sandbox says why', async () => {
    expect(seccompFilter('riscv64')).toEqual({
      ok: false,
      reason: "booty's seccomp filter has no rules for this architecture (riscv64)",
    });
    const missing = seccompFilter('x64', path.join(tempDir(), 'filter.bpf'));
    const probe = await probeBwrap('bwrap', missing);
    expect(probe).toEqual(missing);
    expect(probe.reason).toMatch(/^booty's seccomp filter \S+filter\.bpf is missing: reinstall booty/);
    expect(new BootyError('BOOTY_E_SANDBOX_UNAVAILABLE', { reason: probe.reason }).message).toContain(
      "booty's seccomp filter",
    );
  });
});

describe("compose's container profile", () => {
  const profile = JSON.parse(fs.readFileSync(path.join(repo, 'compose-seccomp.json'), 'utf8')) as {
    syscalls: { names: string[] }[];
  };
  const denied = profile.syscalls[0]!.names;

  /** Runs commands under the profile's filter as booty's unprivileged user, as Docker would start it. */
  function container() {
    const dir = tempDir();
    fs.chmodSync(dir, 0o755);
    const helper = path.join(dir, 'under-profile');
    execFileSync('gcc', [
      '-O2',
      '-o',
      helper,
      path.join(repo, 'test/fixtures/seccomp/under-profile.c'),
      '-lseccomp',
    ]);
    fs.copyFileSync(FILTER_PATH, path.join(dir, 'filter.bpf'));
    const asUser =
      process.getuid?.() === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : [];
    return {
      /** bubblewrap as booty starts it, the sandbox's filter on descriptor 3. */
      sandbox: withFilterOnFd3(path.join(dir, 'filter.bpf'), 'bwrap', [
        ...bwrapArgs({ writable: [dir], cwd: dir, network: false }),
        '/bin/sh',
        '-c',
        'echo built as $(id -u)',
      ]).flat(),
      async run(names: string[], command: string[]) {
        const argv = [...asUser, helper, ...names, '--', ...command];
        const result = await execa(argv[0]!, argv.slice(1), { cwd: dir, reject: false, all: true });
        return { output: String(result.all), exitCode: result.exitCode };
      },
    };
  }

  it('lets bubblewrap build the sandbox, filter and all, and refuses the rest of the deny list to the container', async () => {
    const { sandbox, run } = container();
    const inside = await run(denied, sandbox);
    expect(inside.output).toMatch(/^built as \d+$/m);
    expect(inside.exitCode).toBe(0);
    // The control: refuse pivot_root as well, as Docker's default profile does, and bubblewrap cannot.
    const refused = await run([...denied, 'pivot_root'], sandbox);
    expect(refused.output).toContain('bwrap: pivot_root: Operation not permitted');
    // In the container itself, outside any sandbox, keyctl is refused.
    const keyctl = await run(denied, ['/usr/bin/python3', '-c', KEYCTL]);
    expect(keyctl.output.trim()).toBe('EPERM');
  });
});

const KEYCTL = `import ctypes, errno, os
libc = ctypes.CDLL(None, use_errno=True)
nr = {'x86_64': 250, 'aarch64': 219}[os.uname().machine]
print('ok' if libc.syscall(nr, 0, -3, 0) >= 0 else errno.errorcode[ctypes.get_errno()])`;
