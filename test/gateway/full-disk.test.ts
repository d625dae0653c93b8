import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { EventStore } from '../../src/store/event-store.js';
import { SqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import { tempDir } from '../support/job-harness.js';
import { until } from '../support/until.js';
import { deliver, labelPayload, startTestServer } from './gateway-harness.js';

// A disk that fills while jobs run: SQLite says SQLITE_FULL on every write until space returns.
// Jobs pause and free their slots instead of wedging, deliveries get 503 with Retry-After,
// readiness fails naming the cause, and when writes succeed again every job accepted before or
// after the fault finishes, with no restart, each with a log that verifies.

/** The real store, with every write refused as SQLite refuses it on a full disk while `full`. */
function fillableStore(file: string) {
  const real = new SqliteEventStore(file);
  const state = { full: false };
  const full = () => Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
  const writes = new Set(['append', 'recordDeliveries', 'probeWritable', 'markReported', 'markDamaged']);
  const store = new Proxy(real, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        state.full && writes.has(String(key)) ? Promise.reject(full()) : value.apply(target, args);
    },
  }) as EventStore;
  return { store, state, real };
}

async function verify(db: string, jobId: string) {
  const out: string[] = [];
  const code = await main(['replay', jobId, '--verify', '--db', db], {
    out: (t) => out.push(t),
    err: (t) => out.push(t),
    env: {},
  });
  return { code, out: out.join('\n') };
}

describe('a full disk', () => {
  it('pauses jobs and refuses deliveries while writes fail, and finishes every job once they succeed', async () => {
    const db = path.join(tempDir('booty-full-'), 'booty.db');
    const { store, state, real } = fillableStore(db);
    const s = await startTestServer({ store, gated: true });
    try {
      const before = await deliver(s.url, { payload: labelPayload('labeled', { issue: 1 }) });
      expect(before.status).toBe(202);

      // The disk fills while the job is under way: its next append fails.
      state.full = true;
      s.release();
      await until('the job to pause', async () => s.supervisor.pausedJobs.length === 1);
      expect(s.supervisor.running).toEqual([]); // its slot is free

      const refused = await deliver(s.url, { payload: labelPayload('labeled', { issue: 2 }) });
      expect(refused.status).toBe(503);
      expect(refused.body.error.code).toBe('BOOTY_E_STORE_UNAVAILABLE');
      expect(refused.headers.get('retry-after')).toBe('10');
      const ready = await fetch(`${s.url}/readyz`);
      expect(ready.status).toBe(503);
      const checks = ((await ready.json()) as { checks: { name: string; ok: boolean; reason?: string }[] })
        .checks;
      expect(checks.find((c) => c.name === 'database')).toMatchObject({
        ok: false,
        reason: expect.stringContaining('database or disk is full'),
      });
      const metrics = await (await fetch(`${s.url}/metrics`)).text();
      expect(metrics).toMatch(/^booty_store_write_failures_total [1-9]/m);

      // Space returns: no restart, the paused job resumes, and new deliveries are taken again.
      state.full = false;
      await until(
        'the first job to reach its promoted PR',
        async () => (await real.getJob(before.body.jobId))?.state === 'promoted',
      );
      const after = await deliver(s.url, { payload: labelPayload('labeled', { issue: 2 }) });
      expect(after.status).toBe(202);
      await until(
        'the second job to reach its promoted PR',
        async () => (await real.getJob(after.body.jobId))?.state === 'promoted',
      );
      for (const jobId of [before.body.jobId, after.body.jobId]) {
        expect(await real.getJob(jobId)).toMatchObject({ state: 'promoted' });
        expect(await verify(db, jobId)).toMatchObject({ code: 0 });
      }
      expect((await fetch(`${s.url}/readyz`)).status).toBe(200);
    } finally {
      await s.close();
      await real.close();
    }
  }, 60_000);

  it('stops writing, and says so, when the database file is deleted under it', async () => {
    const s = await startTestServer();
    try {
      fs.rmSync(s.db);
      await until('readiness to fail', async () => (await fetch(`${s.url}/readyz`)).status === 503, 5_000);
      const ready = (await (await fetch(`${s.url}/readyz`)).json()) as {
        checks: { name: string; reason?: string }[];
      };
      expect(ready.checks.find((c) => c.name === 'database')?.reason).toContain(
        'was deleted while booty was using it',
      );
      const r = await deliver(s.url, { payload: labelPayload('labeled', { issue: 3 }) });
      expect(r.status).toBe(503);
      expect(r.body.error.code).toBe('BOOTY_E_STORE_LOST');
      // Nothing wrote a new database in its place.
      expect(fs.existsSync(s.db)).toBe(false);
    } finally {
      await s.close();
    }
  });
});
