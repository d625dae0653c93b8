import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../src/env.js';
import { isBootyError } from '../../src/errors.js';
import { startBooty } from '../../src/runtime/compose.js';
import { captureLog, deliver, labelPayload, SECRET } from '../gateway/gateway-harness.js';
import { tempDir } from '../support/job-harness.js';
import { freshDatabase } from '../support/postgres-database.js';
import { scriptedEffects } from '../support/scripted-effects.js';

// `booty serve` with BOOTY_DATABASE_URL: the same start-up as the CLI's (startBooty), its jobs in
// PostgreSQL and no SQLite file made; one serve per database until workers lease jobs.

describe('serve on PostgreSQL', () => {
  it('given BOOTY_DATABASE_URL, then a delivery runs its job there, a second serve is refused, and the next start serves the job', async () => {
    const dir = tempDir('booty-serve-on-pg-');
    const url = await freshDatabase();
    const env = (lockWaitMs: number) =>
      loadEnv({
        HOST: '127.0.0.1',
        PORT: '0',
        GITHUB_WEBHOOK_SECRET: SECRET,
        BOOTY_DATABASE_URL: url,
        BOOTY_DB: path.join(dir, 'booty.db'),
        BOOTY_WORKDIR: path.join(dir, 'work'),
        BOOTY_LOCK_WAIT_MS: String(lockWaitMs),
      });
    const { log } = captureLog();
    const first = await startBooty({ env: env(0), effects: scriptedEffects().impls, log });
    let jobId: string;
    try {
      const second = await startBooty({ env: env(200), effects: {}, log }).catch((e: unknown) => e);
      expect(isBootyError(second, 'BOOTY_E_DB_LOCKED')).toBe(true);

      const r = await deliver(first.server.url, { payload: labelPayload('labeled', { issue: 7 }) });
      expect(r.status).toBe(202);
      jobId = r.body.jobId;
      expect((await first.supervisor.whenFinished(jobId)).value).toBe('promoted');
    } finally {
      await first.close();
    }
    expect(fs.existsSync(path.join(dir, 'booty.db'))).toBe(false);

    // The first let go of the database as it closed; the next start finds the job in it.
    const next = await startBooty({ env: env(5_000), effects: scriptedEffects().impls, log });
    try {
      const res = await fetch(`${next.server.url}/jobs/${jobId}`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { job: unknown }).job).toMatchObject({
        jobId,
        issue: 7,
        state: 'promoted',
        final: false,
      });
    } finally {
      await next.close();
    }
  });
});
