import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadEnv } from '../../src/env.js';
import { isBootyError } from '../../src/errors.js';
import { runCommand } from '../../src/sandbox/run-command.js';
import { liveInGroup, liveWithArg, sleeper } from './procs.js';

const dirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'booty-run-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('runCommand', () => {
  for (const sandbox of ['off', 'required'] as const) {
    it(`kills a hanging test and the grandchild it left, within the timeout plus 3 s (sandbox ${sandbox})`, async () => {
      const cwd = tempDir();
      const marker = `booty-grandchild-${sandbox}-${process.pid}`;
      let pgid = 0;
      // The shell ignores SIGTERM, so only the SIGKILL after the grace ends it.
      const result = await runCommand({
        cwd,
        command: `trap '' TERM; ${sleeper(marker)} & echo started; wait`,
        timeoutMs: 1_000,
        killGraceMs: 1_000,
        sandbox,
        network: false,
        onStart: (id) => {
          pgid = id;
        },
      });
      expect(result.timedOut).toBe(true);
      expect(result.exitCode).toBeNull();
      expect(result.signal).toMatch(/^SIG(KILL|TERM)$/);
      expect(result.durationMs).toBeLessThan(1_000 + 3_000);
      expect(result.output).toContain('started');
      expect(pgid).toBeGreaterThan(0);
      expect(liveInGroup(pgid)).toEqual([]);
      expect(liveWithArg(marker)).toEqual([]);
    });
  }

  for (const sandbox of ['off', 'required'] as const) {
    it(`sweeps processes a finished command left in the background, setsid ones too (sandbox ${sandbox})`, async () => {
      const cwd = tempDir();
      const marker = `booty-bg-${sandbox}-${process.pid}`;
      let pgid = 0;
      const result = await runCommand({
        cwd,
        command: `(${sleeper(marker)} >/dev/null 2>&1 &) ; setsid ${sleeper(marker)} >/dev/null 2>&1 & ${sleeper(marker)} >/dev/null 2>&1 & sleep 0.5; echo done`,
        timeoutMs: 20_000,
        sandbox,
        network: false,
        onStart: (id) => {
          pgid = id;
        },
      });
      expect(result.exitCode).toBe(0);
      expect(result.timedOut).toBe(false);
      expect(liveInGroup(pgid)).toEqual([]);
      expect(liveWithArg(marker)).toEqual([]);
    });
  }

  it('stops the whole group when the effect is aborted', async () => {
    const cwd = tempDir();
    const controller = new AbortController();
    let pgid = 0;
    const run = runCommand({
      cwd,
      command: 'sleep 600 & sleep 600',
      timeoutMs: 60_000,
      killGraceMs: 500,
      sandbox: 'off',
      network: false,
      signal: controller.signal,
      onStart: (id) => {
        pgid = id;
        setTimeout(() => controller.abort(), 200);
      },
    });
    const result = await run;
    expect(result.aborted).toBe(true);
    expect(result.timedOut).toBe(false);
    expect(liveInGroup(pgid)).toEqual([]);
  });

  it('caps 200 MB of output to its head and tail while memory stays bounded', async () => {
    const cwd = tempDir();
    const cap = 64 * 1024;
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 10);
    const total = 200 * 1024 * 1024;
    const result = await runCommand({
      cwd,
      command: `echo FIRST-LINE; yes 'some test output that goes on and on' | head -c ${total}; echo; echo LAST-LINE`,
      timeoutMs: 120_000,
      sandbox: 'off',
      network: false,
      outputCapBytes: cap,
    });
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(result.exitCode).toBe(0);
    expect(result.outputBytes).toBe('FIRST-LINE\n'.length + total + 1 + 'LAST-LINE\n'.length);
    expect(result.truncated).toBe(true);
    expect(result.output.startsWith('FIRST-LINE\n')).toBe(true);
    expect(result.output.endsWith('LAST-LINE\n')).toBe(true);
    expect(result.output).toMatch(/\[booty: \d+ bytes of output omitted\]/);
    expect(Buffer.byteLength(result.output)).toBeLessThanOrEqual(cap + 100);
    // Buffering it all would grow the heap by at least 200 MB; half that leaves room for a GC that
    // lags behind the stream on a loaded machine.
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);
  });

  for (const sandbox of ['off', 'required'] as const) {
    it(`gives the command no GITHUB_TOKEN or ANTHROPIC_API_KEY even when booty has them (sandbox ${sandbox})`, async () => {
      const cwd = tempDir();
      const saved = { gh: process.env.GITHUB_TOKEN, an: process.env.ANTHROPIC_API_KEY };
      process.env.GITHUB_TOKEN = 'ghp_parentsecretparentsecret0000000000';
      process.env.ANTHROPIC_API_KEY = 'sk-ant-parentsecret-000000';
      try {
        const result = await runCommand({ cwd, command: 'env', timeoutMs: 10_000, sandbox, network: false });
        const names = result.output
          .trim()
          .split('\n')
          .map((l) => l.split('=')[0])
          .sort();
        expect(result.exitCode).toBe(0);
        expect(result.output).not.toContain('parentsecret');
        // sh itself adds PWD (and OLDPWD/SHLVL in some shells); the rest is the allowlist, and the
        // variables that locate a toolchain booty detected.
        const allowed = ['CI', 'FORCE_COLOR', 'HOME', 'LANG', 'NO_COLOR', 'PATH', 'TERM'];
        const toolchain = ['PYENV_ROOT', 'RUSTUP_HOME', 'RUSTUP_TOOLCHAIN', 'GOROOT', 'JAVA_HOME', 'NVM_DIR'];
        const shown = names.filter((n) => !['PWD', 'OLDPWD', 'SHLVL', '_'].includes(n!));
        expect(shown.filter((n) => !toolchain.includes(n!))).toEqual(allowed);
        const home = /^HOME=(.*)$/m.exec(result.output)![1]!;
        expect(home.startsWith(os.tmpdir())).toBe(true);
        expect(home).not.toBe(os.homedir());
        expect(result.output).toMatch(/^CI=1$/m);
      } finally {
        if (saved.gh === undefined) delete process.env.GITHUB_TOKEN;
        else process.env.GITHUB_TOKEN = saved.gh;
        if (saved.an === undefined) delete process.env.ANTHROPIC_API_KEY;
        else process.env.ANTHROPIC_API_KEY = saved.an;
      }
    });
  }

  for (const sandbox of ['off', 'required'] as const) {
    it(`passes the variables the operator names (BOOTY_SANDBOX_ENV), and no other of booty's (sandbox ${sandbox})`, async () => {
      const parentEnv = { PATH: process.env.PATH, DATABASE_PASSWORD: 'parentsecret' };
      const env = loadEnv({
        ...parentEnv,
        HTTPS_PROXY: 'http://proxy.internal:3128',
        NO_PROXY: 'localhost',
        BOOTY_SANDBOX_ENV: 'HTTPS_PROXY,NO_PROXY,UNSET_ONE',
      });
      const result = await runCommand({
        cwd: tempDir(),
        command:
          'echo "[$HTTPS_PROXY] [$NO_PROXY] [$DATABASE_PASSWORD]"; env | grep -q "^UNSET_ONE=" || echo unset',
        timeoutMs: 10_000,
        sandbox,
        network: false,
        parentEnv,
        passEnv: env.BOOTY_SANDBOX_ENV,
      });
      expect(result.exitCode).toBe(0);
      // A named variable booty does not have stays unset, not set empty.
      expect(result.output.trim()).toBe('[http://proxy.internal:3128] [localhost] []\nunset');
    });
  }

  it('refuses sandbox: required without bubblewrap, saying how to install it', async () => {
    const cwd = tempDir();
    const run = runCommand({
      cwd,
      command: 'true',
      timeoutMs: 5_000,
      sandbox: 'required',
      network: false,
      bwrapPath: path.join(cwd, 'no-such-bwrap'),
    });
    await expect(run).rejects.toSatisfy(
      (err: unknown) =>
        isBootyError(err, 'BOOTY_E_SANDBOX_UNAVAILABLE') &&
        err.message.includes('apt-get install bubblewrap') &&
        !err.retryable,
    );
  });

  it('falls back to namespaces under sandbox: auto when bubblewrap is missing', async () => {
    const cwd = tempDir();
    const result = await runCommand({
      cwd,
      command: 'echo hi',
      timeoutMs: 5_000,
      sandbox: 'auto',
      network: false,
      bwrapPath: path.join(cwd, 'no-such-bwrap'),
    });
    expect(result).toMatchObject({ exitCode: 0, sandbox: 'unshare', output: 'hi\n' });
  });
});
