import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/job-harness.js';
import { serveProcess } from '../support/serve-process.js';

// `booty serve` runs strangers' code all day: without bubblewrap it does not start, unless the
// operator says BOOTY_SANDBOX=off. The real CLI, in a child process whose PATH has no bwrap.

/** The real CLI with only these variables: PATH points at a directory with no tools in it. */
function serve(env: Record<string, string>) {
  const dir = tempDir('booty-serve-sandbox-');
  const s = serveProcess(
    {
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
    { only: true },
  );
  return { ...s, dir };
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
    const listening = await s.url.then(
      () => true,
      () => false,
    );
    expect(listening, s.err()).toBe(true);
    s.proc.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  });
});
