import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../src/env.js';
import { startBooty } from '../../src/main/serve.js';
import { captureLog, deliver, labelPayload, SECRET } from '../gateway/gateway-harness.js';
import { tempDir } from '../support/job-harness.js';
import { freshDatabase } from '../support/postgres-database.js';
import { scriptedEffects } from '../support/scripted-effects.js';
import { until } from '../support/until.js';

// The queue's metrics, scraped from two serves' /metrics on one PostgreSQL database during a storm
// of deliveries: the queue's depth and the age of its oldest job (the same on every worker, from
// pg-boss's rows), the jobs each worker runs (its own share, by worker), and the lease counters.

const ISSUES = 12;

async function startWorker(url: string, name: string) {
  const dir = tempDir(`booty-metrics-${name}-`);
  const env = loadEnv({
    HOST: '127.0.0.1',
    PORT: '0',
    GITHUB_WEBHOOK_SECRET: SECRET,
    BOOTY_DATABASE_URL: url,
    BOOTY_DB: path.join(dir, 'booty.db'),
    BOOTY_WORKDIR: path.join(dir, 'work'),
    BOOTY_WORKER_ID: name,
    BOOTY_DRAIN_MS: '0',
    BOOTY_CONCURRENCY: '2',
    BOOTY_LEASE_SECONDS: '4',
    BOOTY_LEASE_POLL_MS: '100',
  });
  const { log } = captureLog();
  return startBooty({ env, effects: scriptedEffects({ delayMs: 150 }).impls, log });
}

/** Each series' value on the worker's /metrics now, by its full name with labels. */
async function scrape(base: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const series = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^(booty_\S+) (\S+)$/.exec(line);
    if (m) series.set(m[1]!, Number(m[2]));
  }
  return series;
}

describe('queue metrics during a storm', () => {
  it('given a storm of deliveries over two workers, then /metrics shows the queue waiting and aging, each worker its own running jobs, and the leases taken add up to the jobs', async () => {
    const url = await freshDatabase();
    const workers = [await startWorker(url, 'm-a'), await startWorker(url, 'm-b')];
    try {
      const bases = workers.map((w) => w.server.url);
      const storm = Promise.all(
        Array.from({ length: ISSUES }, (_, i) =>
          deliver(bases[i % 2]!, { payload: labelPayload('labeled', { issue: i + 1 }) }),
        ),
      );
      // Four slots for twelve jobs: the queue is seen waiting, its oldest job aging, both workers busy.
      const seen = { queued: 0, oldest: 0, runningA: 0, runningB: 0 };
      await until('the storm to be seen on /metrics', async () => {
        const [a, b] = await Promise.all(bases.map(scrape));
        seen.queued = Math.max(seen.queued, a!.get('booty_queue_jobs{state="queued"}') ?? 0);
        seen.oldest = Math.max(seen.oldest, b!.get('booty_queue_oldest_seconds') ?? 0);
        seen.runningA = Math.max(seen.runningA, a!.get('booty_jobs_running_here{worker="m-a"}') ?? 0);
        seen.runningB = Math.max(seen.runningB, b!.get('booty_jobs_running_here{worker="m-b"}') ?? 0);
        return seen.queued > 0 && seen.oldest > 0 && seen.runningA > 0 && seen.runningB > 0;
      });
      expect((await storm).map((r) => r.status)).toEqual(Array(ISSUES).fill(202));
      await until('every job to park', async () => {
        const jobs = await workers[0]!.store.listJobs();
        return jobs.length === ISSUES && jobs.every((j) => j.state === 'promoted');
      });

      const [a, b] = await Promise.all(bases.map(scrape));
      // A worker counts only what it runs: none of the other's series.
      expect(a!.has('booty_jobs_running_here{worker="m-b"}')).toBe(false);
      // The store's counts are the same on both (max(), not sum()), and the queue is empty.
      for (const m of [a!, b!]) {
        expect(m.get('booty_store_jobs{state="promoted"}')).toBe(ISSUES);
        expect(m.get('booty_queue_jobs{state="queued"}')).toBe(0);
        expect(m.get('booty_queue_oldest_seconds')).toBe(0);
        expect(m.get('booty_lease_lapses_total')).toBe(0);
        expect(m.get('booty_lease_takeovers_total')).toBe(0);
        expect(m.get('booty_lease_renewal_failures_total')).toBe(0);
        expect(m.get('booty_lease_halts_total')).toBe(0);
      }
      // Every job was leased at least once, by one worker or the other; each worker took some.
      const takes = [a!, b!].map((m) => m.get('booty_lease_takes_total') ?? 0);
      expect(takes[0]! + takes[1]!).toBeGreaterThanOrEqual(ISSUES);
      expect(Math.min(...takes)).toBeGreaterThan(0);
    } finally {
      for (const w of workers) await w.close();
    }
  }, 60_000);
});
