import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../src/env.js';
import { startBooty } from '../../src/main/serve.js';
import { captureLog, deliver, labelPayload, SECRET, startTestServer } from '../gateway/gateway-harness.js';
import { compiled } from '../support/compiled.js';
import { tempDir } from '../support/job-harness.js';

// Start-up refuses a bad environment with one line naming the variable; SIGTERM closes the
// listener, leaves the in-flight job in its log, exits 0, and the next start finishes the job.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const child = () => compiled('test/gateway/serve-child.ts');

function spawnServer(env: Record<string, string>) {
  const proc = fork(child(), [], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let stderr = '';
  proc.stderr!.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const ready = new Promise<string>((resolve, reject) => {
    proc.once('message', (m: any) => resolve(m.url));
    exited.then(() => reject(new Error(`server exited: ${stderr}`)));
  });
  ready.catch(() => {}); // a test that expects the exit does not await ready
  return { proc: proc as ChildProcess, ready, exited, stderr: () => stderr };
}

describe('start-up', () => {
  it('stops with one line naming a malformed variable', async () => {
    const db = path.join(tempDir('booty-serve-'), 'booty.db');
    const s = spawnServer({ PORT: 'eighty', BOOTY_DB: db, GITHUB_WEBHOOK_SECRET: SECRET });
    expect(await s.exited).toBe(1);
    const lines = s.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^booty: environment variable PORT is invalid/);
    expect(fs.existsSync(db)).toBe(false);
  });

  it.each([
    [{ BOOTY_REPOS: 'acme' }, 'BOOTY_REPOS'],
    [{ BOOTY_SELF_REPO: 'booty' }, 'BOOTY_SELF_REPO'],
    [{ GITHUB_WEBHOOK_SECRET: '' }, 'GITHUB_WEBHOOK_SECRET'],
  ])('refuses %o before opening anything, naming %s', async (bad, name) => {
    const db = path.join(tempDir('booty-serve-'), 'booty.db');
    const env = loadEnv({
      HOST: '127.0.0.1',
      PORT: '0',
      BOOTY_DB: db,
      GITHUB_WEBHOOK_SECRET: SECRET,
      ...bad,
    });
    const start = startBooty({ env, effects: {}, log: captureLog().log });
    await expect(start).rejects.toMatchObject({ code: 'BOOTY_E_ENV_INVALID', params: { name } });
    await expect(start).rejects.toThrow(new RegExp(`^environment variable ${name} is `));
    expect(fs.existsSync(db)).toBe(false);
  });
});

describe('shutdown', () => {
  it('exits 0 on SIGTERM with the in-flight job left in its log, and the next start finishes it', async () => {
    const db = path.join(tempDir('booty-serve-'), 'booty.db');
    const s = spawnServer({ BOOTY_DB: db, GITHUB_WEBHOOK_SECRET: SECRET });
    const url = await s.ready;
    const r = await deliver(url, { payload: labelPayload('labeled', { issue: 12 }) });
    expect(r.status).toBe(202);

    s.proc.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();

    const next = await startTestServer({ db });
    try {
      const before = await next.store.readStream(r.body.jobId);
      expect(before.map((e) => e.type)).toEqual(['JobRequested']);
      expect((await next.supervisor.whenFinished(r.body.jobId)).value).toBe('promoted');
      // It waits with its promoted PR: not final, parked.
      expect(await next.store.getJob(r.body.jobId)).toMatchObject({ final: false, state: 'promoted' });
    } finally {
      await next.close();
    }
  });
});
