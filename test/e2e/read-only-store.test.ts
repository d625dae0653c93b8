import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Responder } from '../../sim/anthropic/anthropic-simulator.js';
import { demoResponder } from '../../src/demo/demo-script.js';
import { deliver, labelPayload } from '../gateway/gateway-harness.js';
import { serveProcess as serve } from '../support/serve-process.js';
import { until } from '../support/until.js';
import { e2eWorld, OWNER, REPO, SECRET } from './e2e-world.js';

// The database made immutable under a running `booty serve` (chattr +i, as root: the one way to
// make files refuse writes through descriptors and mappings a process holds already). SQLite's
// write-ahead index (`booty.db-shm`) is mapped into memory; flushed to disk (`sync`), its pages
// are write-protected again, so the next write to it faults, and on an immutable file the kernel
// answers that with SIGBUS. booty must pause instead, as on a full disk, and resume once the
// files take writes again: no signal, no restart.

const files = (db: string) => [db, `${db}-wal`, `${db}-shm`];
const chattr = (flag: '+i' | '-i', db: string) => execFileSync('chattr', [flag, ...files(db)]);

const worlds: { close(): Promise<void> }[] = [];
const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) c();
  for (const w of worlds.splice(0)) await w.close().catch(() => {});
});

describe('a database that refuses writes', () => {
  it('pauses the job and refuses deliveries while the files are immutable, then finishes the job', async () => {
    let release = false;
    let asked = 0;
    const scripted = demoResponder('pass');
    const responder: Responder = async (request) => {
      if (request.toolName === 'submit_analysis') {
        asked++;
        await until('the release', () => release, 60_000);
      }
      return scripted(request);
    };
    const w = await e2eWorld('pass', { responder });
    worlds.push(w);
    const env = w.env({ LOG_LEVEL: 'warn' });
    const db = env.BOOTY_DB!;
    const s = serve(env);
    cleanups.push(() => {
      s.proc.kill('SIGKILL');
      // So the world's files can be removed; a clean exit removed the log and the index.
      execFileSync('chattr', ['-i', ...files(db).filter((f) => fs.existsSync(f))]);
    });
    const url = await s.url;
    w.github.setWebhook({ url: `${url}/webhooks`, secret: SECRET });
    await w.label();
    await until('the job to ask the model', () => asked === 1);

    chattr('+i', db);
    execFileSync('sync', [`${db}-shm`]);
    // The model answers: the job's next append meets the immutable files.
    release = true;
    const why = () => `exit ${s.proc.exitCode} signal ${s.proc.signalCode}\n${s.out()}${s.err()}`;
    const ready = await until(
      'readiness to fail on the database',
      async () => {
        if (s.proc.exitCode !== null || s.proc.signalCode !== null) throw new Error(`serve ended: ${why()}`);
        const r = await fetch(`${url}/readyz`).catch(() => null);
        return (
          r?.status === 503 &&
          ((await r.json()) as { checks: { name: string; ok: boolean; reason?: string }[] })
        );
      },
      20_000,
      why,
    );
    const check = ready.checks.find((c) => c.name === 'database');
    expect(check?.ok).toBe(false);
    expect(check?.reason).toMatch(/the database file \S+\/booty\.db(-wal|-shm)? refuses writes \(EPERM/);
    const refused = await deliver(url, {
      payload: labelPayload('labeled', { repo: `${OWNER}/${REPO}`, issue: 99 }),
      secret: SECRET,
    });
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('BOOTY_E_STORE_UNAVAILABLE');
    expect(refused.headers.get('retry-after')).toBe('10');
    expect(s.out()).toContain('the database takes no writes: pausing jobs');
    expect(w.pulls()).toEqual([]);

    // Writable again: the paused job resumes with no restart and reaches its promoted PR.
    chattr('-i', db);
    await until('the PR to be promoted', () => w.pulls().some((p) => !p.draft), 60_000, why);
    expect(w.pulls()).toHaveLength(1);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    expect(s.proc.exitCode).toBe(null);
    expect(s.proc.signalCode).toBe(null);
    s.proc.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  }, 120_000);
});
