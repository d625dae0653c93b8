import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/sandbox/run-command.js';

// Each isolation test also runs unsandboxed as a control, so it proves the sandbox made the
// difference (and that the test can fail).

const dirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'booty-iso-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

const canConnect = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

async function waitForFile(file: string, ms: number) {
  const until = Date.now() + ms;
  while (!fs.existsSync(file)) {
    if (Date.now() > until) throw new Error(`${file} never appeared`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function listenProbe(sandbox: 'off' | 'required') {
  const ws = tempDir();
  const port = await freePort();
  const script = `require('net').createServer((s) => s.end('hi')).listen(${port}, '0.0.0.0', () => {
    require('fs').writeFileSync('listening', ''); setTimeout(() => process.exit(0), 1500);
  });`;
  fs.writeFileSync(path.join(ws, 'server.js'), script);
  const run = runCommand({ cwd: ws, command: 'node server.js', timeoutMs: 20_000, sandbox, network: false });
  await waitForFile(path.join(ws, 'listening'), 15_000);
  const reachable = await canConnect(port);
  const result = await run;
  return { reachable, result };
}

describe('the sandbox', () => {
  it('keeps a test from opening a port the host can reach', async () => {
    const control = await listenProbe('off');
    expect(control.reachable).toBe(true);
    const sandboxed = await listenProbe('required');
    expect(sandboxed.result.sandbox).toBe('bwrap');
    expect(sandboxed.result.exitCode).toBe(0);
    expect(sandboxed.reachable).toBe(false);
  });

  it('has network for an install step when asked', async () => {
    const ws = tempDir();
    const result = await runCommand({
      cwd: ws,
      command: 'cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d " " | sort | tr "\\n" " "',
      timeoutMs: 10_000,
      sandbox: 'required',
      network: true,
    });
    const testRun = await runCommand({
      cwd: ws,
      command: 'cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d " " | sort | tr "\\n" " "',
      timeoutMs: 10_000,
      sandbox: 'required',
      network: false,
    });
    expect(testRun.output.trim()).toBe('lo');
    expect(result.output.trim()).not.toBe('lo');
  });

  it('keeps a test from writing outside its workspace', async () => {
    const parent = tempDir();
    const ws = path.join(parent, 'ws');
    const outside = path.join(parent, 'outside');
    fs.mkdirSync(ws);
    fs.mkdirSync(outside);
    const varTmpProbe = path.join('/var/tmp', `booty-probe-${process.pid}-${Date.now()}`);
    const command = [
      'echo in > inside.txt',
      `echo out > ${outside}/pwned.txt || echo blocked-outside`,
      `echo out > ${varTmpProbe} || echo blocked-var-tmp`,
      `echo out > ${os.homedir()}/booty-pwned.txt || echo blocked-home`,
      'true',
    ].join('; ');
    try {
      const result = await runCommand({
        cwd: ws,
        command,
        timeoutMs: 10_000,
        sandbox: 'required',
        network: false,
      });
      expect(result.sandbox).toBe('bwrap');
      expect(fs.readFileSync(path.join(ws, 'inside.txt'), 'utf8')).toBe('in\n');
      expect(fs.existsSync(path.join(outside, 'pwned.txt'))).toBe(false);
      expect(fs.existsSync(varTmpProbe)).toBe(false);
      expect(fs.existsSync(path.join(os.homedir(), 'booty-pwned.txt'))).toBe(false);
      expect(result.output).toContain('blocked-home');

      const control = await runCommand({
        cwd: ws,
        command: `echo out > ${outside}/pwned.txt`,
        timeoutMs: 10_000,
        sandbox: 'off',
        network: false,
      });
      expect(control.exitCode).toBe(0);
      expect(fs.existsSync(path.join(outside, 'pwned.txt'))).toBe(true);
    } finally {
      fs.rmSync(varTmpProbe, { force: true });
      fs.rmSync(path.join(os.homedir(), 'booty-pwned.txt'), { force: true });
    }
  });
});
