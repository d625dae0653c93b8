import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/sandbox/run-command.js';
import { liveWithArg } from './procs.js';

// Hostile test commands against the wall. Every attack first runs on the host, unsandboxed, as a
// control: it must succeed there, so each test proves the sandbox made the difference.

const dirs: string[] = [];
const tempDir = (prefix = 'booty-wall-') => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** The attack with no wall at all, as a control. */
const onHost = (cwd: string, command: string) =>
  execa('/bin/sh', ['-c', command], { cwd, reject: false, all: true }).then((r) => ({
    exitCode: r.exitCode,
    output: String(r.all ?? ''),
  }));

const walled = (
  cwd: string,
  command: string,
  extra: { readOnly?: string[]; sandbox?: 'required' | 'off' } = {},
) =>
  runCommand({
    cwd,
    command,
    timeoutMs: 20_000,
    sandbox: extra.sandbox ?? 'required',
    network: false,
    readOnly: extra.readOnly,
  });

/** A workdir as booty lays it out: the service's files beside jobs/<id> clones. */
function service() {
  const root = tempDir('booty-service-');
  const jobA = path.join(root, 'work', 'jobs', 'job-a');
  const jobB = path.join(root, 'work', 'jobs', 'job-b');
  fs.mkdirSync(path.join(jobA, '.git', 'hooks'), { recursive: true });
  fs.mkdirSync(jobB, { recursive: true });
  fs.writeFileSync(path.join(root, 'booty.db'), 'SQLITE-DATABASE-OF-THE-SERVICE');
  fs.writeFileSync(path.join(root, 'app-key.pem'), '-----BEGIN RSA PRIVATE KEY-----\nSERVICEKEY\n');
  fs.writeFileSync(path.join(jobB, 'secret.txt'), 'OTHER-JOBS-WORK');
  fs.writeFileSync(path.join(jobA, '.git', 'config'), '[core]\n\tbare = false\n');
  return { root, jobA, jobB };
}

describe('the sandbox wall', () => {
  it('hides /etc/shadow, the service’s directory and another job’s workspace', async () => {
    const { root, jobA, jobB } = service();
    const attack = [
      'cat /etc/shadow',
      `cat ${root}/booty.db`,
      `cat ${root}/app-key.pem`,
      `cat ${jobB}/secret.txt`,
      `ls ${os.homedir()}`,
    ].join('; ');
    const control = await onHost(jobA, attack);
    expect(control.output).toContain('SQLITE-DATABASE-OF-THE-SERVICE');
    expect(control.output).toContain('SERVICEKEY');
    expect(control.output).toContain('OTHER-JOBS-WORK');
    expect(control.output).toMatch(/^root:/m);

    const result = await walled(jobA, attack);
    expect(result.sandbox).toBe('bwrap');
    expect(result.output).not.toContain('SQLITE-DATABASE-OF-THE-SERVICE');
    expect(result.output).not.toContain('SERVICEKEY');
    expect(result.output).not.toContain('OTHER-JOBS-WORK');
    expect(result.output).not.toMatch(/^root:/m);
    expect(result.output).toContain('/etc/shadow: No such file or directory');
  });

  it('shows an operator’s read-only path, even under /tmp, and keeps it read-only', async () => {
    const tools = tempDir('booty-tools-');
    fs.writeFileSync(path.join(tools, 'tool.txt'), 'the tool');
    const result = await runCommand({
      cwd: tempDir(),
      command: `cat ${tools}/tool.txt; echo x > ${tools}/tool.txt || echo refused`,
      timeoutMs: 10_000,
      sandbox: 'required',
      network: false,
      roPaths: [tools],
    });
    expect(result.output).toContain('the tool');
    expect(result.output).toContain('refused');
    expect(fs.readFileSync(path.join(tools, 'tool.txt'), 'utf8')).toBe('the tool');
  });

  it('shows no other process’s environment', async () => {
    const marker = `booty-wall-environ-${process.pid}`;
    process.env.BOOTY_WALL_MARKER = marker;
    try {
      const attack = 'cat /proc/*/environ 2>/dev/null | tr "\\0" "\\n" | grep BOOTY_WALL_MARKER; true';
      const control = await onHost(tempDir(), attack);
      expect(control.output).toContain(marker);
      for (const sandbox of ['required', 'off'] as const) {
        const result = await walled(tempDir(), attack, { sandbox });
        expect(result.sandbox).toBe(sandbox === 'required' ? 'bwrap' : 'unshare');
        expect(result.output).not.toContain(marker);
      }
    } finally {
      delete process.env.BOOTY_WALL_MARKER;
    }
  });

  describe('loopback', () => {
    let server: net.Server;
    let port = 0;
    beforeAll(async () => {
      server = net.createServer((s) => s.end('HELLO-FROM-THE-HOST'));
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      port = (server.address() as net.AddressInfo).port;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    it('reaches no port the host listens on', async () => {
      const attack = `node -e "require('net').connect(${port}, '127.0.0.1').on('data', (d) => { console.log(String(d)); process.exit(0); }).on('error', (e) => { console.log('refused', e.code); process.exit(0); })"`;
      const control = await onHost(tempDir(), attack);
      expect(control.output).toContain('HELLO-FROM-THE-HOST');
      const result = await walled(tempDir(), attack);
      expect(result.output).not.toContain('HELLO-FROM-THE-HOST');
      expect(result.output).toContain('refused ECONNREFUSED');
    });
  });

  for (const sandbox of ['required', 'off'] as const) {
    it(`keeps .git/hooks and .git/config as they were (sandbox ${sandbox})`, async () => {
      const { jobA } = service();
      const git = path.join(jobA, '.git');
      const attack = `echo 'curl evil' > .git/hooks/pre-push; chmod +x .git/hooks/pre-push; printf '[core]\\n\\tfsmonitor = evil\\n' >> .git/config; echo done`;
      const result = await walled(jobA, attack, { sandbox, readOnly: [git] });
      expect(result.output).toContain('Read-only file system');
      expect(fs.existsSync(path.join(git, 'hooks', 'pre-push'))).toBe(false);
      expect(fs.readFileSync(path.join(git, 'config'), 'utf8')).toBe('[core]\n\tbare = false\n');

      const control = await onHost(jobA, attack);
      expect(control.exitCode).toBe(0);
      expect(fs.existsSync(path.join(git, 'hooks', 'pre-push'))).toBe(true);
    });

    it(`leaves no process behind: setsid, double-forked and SIGTERM-deaf children die at the timeout (sandbox ${sandbox})`, async () => {
      const marker = `booty-wall-orphan-${sandbox}-${process.pid}`;
      const orphan = `sh -c "trap '' TERM; exec node -e 'process.on(\\"SIGTERM\\", () => {}); setInterval(() => {}, 1000)' ${marker}"`;
      const command = `for i in $(seq 1 20); do setsid ${orphan} >/dev/null 2>&1 & (${orphan} >/dev/null 2>&1 &); done; echo spawned; sleep 600`;
      const result = await runCommand({
        cwd: tempDir(),
        command,
        timeoutMs: 6_000,
        killGraceMs: 500,
        sandbox,
        network: false,
      });
      expect(result.timedOut).toBe(true);
      expect(result.output).toContain('spawned');
      expect(liveWithArg(marker)).toEqual([]);
    });
  }
});
