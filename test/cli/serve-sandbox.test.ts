import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compiled } from '../support/compiled.js';
import { tempDir } from '../support/job-harness.js';

// `booty serve` runs strangers' code all day: without bubblewrap it does not start, unless the
// operator says BOOTY_SANDBOX=off. The real CLI, in a child process whose PATH has no bwrap.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function serve(env: Record<string, string>) {
  const dir = tempDir('booty-serve-sandbox-');
  const proc = spawn(process.execPath, [compiled('src/cli/bin.ts'), 'serve'], {
    cwd: root,
    env: {
      PATH: path.join(dir, 'no-tools-here'),
      HOST: '127.0.0.1',
      PORT: '0',
      BOOTY_DB: path.join(dir, 'booty.db'),
      BOOTY_WORKDIR: path.join(dir, 'work'),
      GITHUB_WEBHOOK_SECRET: 'secret',
      GITHUB_TOKEN: `ghp_${'x'.repeat(36)}`,
      ANTHROPIC_API_KEY: 'sk-ant-test-key',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (d) => {
    stdout += d;
  });
  proc.stderr.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, exited, dir, out: () => stdout, err: () => stderr };
}

describe('booty serve and the sandbox', () => {
  it('refuses to start without bubblewrap, in one line saying how to install it or opt out', async () => {
    const s = serve({});
    expect(await s.exited).toBe(1);
    const lines = s.err().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^booty serve: the sandbox is required, but bubblewrap cannot run here \(bwrap is not installed\)/,
    );
    expect(lines[0]).toContain('apt-get install bubblewrap');
    expect(lines[0]).toContain('BOOTY_SANDBOX=off');
    expect(fs.existsSync(path.join(s.dir, 'booty.db'))).toBe(false);
  });

  it('starts without it when the operator sets BOOTY_SANDBOX=off', async () => {
    const s = serve({ BOOTY_SANDBOX: 'off' });
    const listening = await new Promise<boolean>((resolve) => {
      const timer = setInterval(() => {
        if (s.out().includes('booty is listening')) {
          clearInterval(timer);
          resolve(true);
        }
      }, 50);
      s.exited.then(() => {
        clearInterval(timer);
        resolve(false);
      });
    });
    expect(listening, s.err()).toBe(true);
    s.proc.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  });
});
