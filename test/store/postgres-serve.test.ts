import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../src/env.js';
import { startBooty } from '../../src/main/serve.js';
import { captureLog, deliver, labelPayload, SECRET } from '../gateway/gateway-harness.js';
import { tempDir } from '../support/job-harness.js';
import { freshDatabase } from '../support/postgres-database.js';
import { scriptedEffects } from '../support/scripted-effects.js';

// `booty serve` with BOOTY_DATABASE_URL: the same start-up as the CLI's (startBooty), its jobs in
// PostgreSQL and no SQLite file made; any number of serves share the database, leasing its jobs.

describe('serve on PostgreSQL', () => {
  it('given BOOTY_DATABASE_URL, then a second serve starts on the same database, a delivery to it runs its job there, and the next start serves the job', async () => {
    const dir = tempDir('booty-serve-on-pg-');
    const url = await freshDatabase();
    const env = () =>
      loadEnv({
        HOST: '127.0.0.1',
        PORT: '0',
        GITHUB_WEBHOOK_SECRET: SECRET,
        BOOTY_DATABASE_URL: url,
        BOOTY_DB: path.join(dir, 'booty.db'),
        BOOTY_WORKDIR: path.join(dir, 'work'),
      });
    const { log } = captureLog();
    const first = await startBooty({ env: env(), effects: scriptedEffects().impls, log });
    let jobId: string;
    try {
      const second = await startBooty({ env: env(), effects: scriptedEffects().impls, log });
      try {
        const r = await deliver(second.server.url, { payload: labelPayload('labeled', { issue: 7 }) });
        expect(r.status).toBe(202);
        jobId = r.body.jobId;
        for (let i = 0; (await first.store.getJob(jobId))?.state !== 'promoted'; i++) {
          if (i > 200) throw new Error('the job did not park in 10 s');
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
    }
    expect(fs.existsSync(path.join(dir, 'booty.db'))).toBe(false);

    // The first let go of the database as it closed; the next start finds the job in it.
    const next = await startBooty({ env: env(), effects: scriptedEffects().impls, log });
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
