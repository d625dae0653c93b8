import { afterEach, describe, expect, it } from 'vitest';
import type { LeaseSettings } from '../../src/store/job-leases.js';
import { PgBossLeases } from '../../src/store/postgres/pg-boss-leases.js';
import { freshDatabase, onDatabase } from '../support/postgres-database.js';
import { sleep } from '../support/until.js';
import { jobLeasesContract } from './job-leases-contract.js';

// Job leases through pg-boss on a real server (a database per test): the contract every JobLeases
// keeps, in real time, then what only pg-boss's rows can show. test/engine/job-leases.test.ts runs
// workers that lease through it.

jobLeasesContract('pg-boss', {
  async make(settings) {
    const url = await freshDatabase();
    return { worker: () => new PgBossLeases(url, settings), elapse: sleep };
  },
});

const SETTINGS: LeaseSettings = { seconds: 4, pollMs: 100 };
const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

function leasesOn(url: string, settings = SETTINGS) {
  const leases = new PgBossLeases(url, settings);
  closing.push(() => leases.close());
  return leases;
}

describe('lease length', () => {
  it('given a job offered by a worker with a longer lease, when a worker with a shorter one takes it, then the lease runs for the taker’s period', async () => {
    const url = await freshDatabase();
    await leasesOn(url, { seconds: 600, pollMs: 100 }).offer(['job-1']);
    const [lease] = await leasesOn(url).take(5);
    expect(lease).toMatchObject({ jobId: 'job-1' });
    // Counted from the row's activation: the taker's period, plus the moment its take took.
    const { rows } = await onDatabase(url, (c) =>
      c.query<{ seconds: number }>(`SELECT extract(epoch FROM expire_in)::float AS seconds FROM pgboss.job`),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.seconds).toBeGreaterThanOrEqual(SETTINGS.seconds);
    expect(rows[0]!.seconds).toBeLessThan(SETTINGS.seconds + 2);
  });
});
