import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleIssue } from '../../src/demo/demo-script.js';
import { PostgresEventStore } from '../../src/store/postgres/postgres-event-store.js';
import { e2eWorld, OWNER, REPO, SECRET } from '../e2e/e2e-world.js';
import { freshDatabase, onDatabase } from '../support/postgres-database.js';
import { until } from '../support/until.js';
import { type ServeProcess, startServe } from './serve-process.js';
import { startFanout } from './webhook-fanout.js';

// The acceptance test of many workers (#16): three `booty serve` processes on one PostgreSQL
// database, the GitHub and Anthropic simulators over loopback, 50 labeled issues arriving as a
// storm of deliveries (round-robin over the three gateways, every fourth sent to two at once), one
// worker SIGKILLed part way. Every job runs to its PR, then every issue is closed (an event for a
// parked job, to whichever gateway): every job ends exactly once, with one PR and one progress
// comment per issue, and no effect that finished ran again.

const ISSUES = 50;
const CONCURRENCY = 4;
const LEASE_SECONDS = 5;

describe('many workers on one PostgreSQL database', () => {
  it('given 50 issues labeled in a storm over three workers, one killed part way, then every job ends once with one PR and one progress comment, and no finished effect runs again', async () => {
    const world = await e2eWorld('pass');
    const database = await freshDatabase();
    const workers: ServeProcess[] = [];
    const store = new PostgresEventStore(database);
    let watching: NodeJS.Timeout | undefined;
    const why = () => workers.map((w, i) => `--- worker ${i}\n${w.output()}`).join('\n');
    try {
      // Each issue names itself in its body, so the model's requests can be counted per issue.
      const { title, body } = sampleIssue();
      const issues = Array.from({ length: ISSUES }, (_, i) => {
        const created = world.github.createIssue(OWNER, REPO, { title, body: `${body}\n\n[storm ${i + 1}]` });
        return (created as { number: number }).number;
      });
      for (let i = 0; i < 3; i++) {
        workers.push(
          startServe(
            world.env({
              LOG_LEVEL: 'warn',
              BOOTY_DATABASE_URL: database,
              BOOTY_WORKDIR: path.join(world.dir, `worker-${i}`),
              BOOTY_SANDBOX: 'off',
              BOOTY_CONCURRENCY: String(CONCURRENCY),
              BOOTY_LEASE_SECONDS: String(LEASE_SECONDS),
              BOOTY_LEASE_POLL_MS: '200',
            }),
          ),
        );
      }
      const urls = await Promise.all(workers.map((w) => w.url));
      const fanout = await startFanout(() => urls, { twiceEvery: 4 });
      world.github.setWebhook({ url: fanout.url, secret: SECRET });

      const storm = Promise.all(issues.map((n) => world.github.labelIssue(OWNER, REPO, n, 'booty')));
      // Part way: the second worker dies with jobs in its hands (its own count says so).
      await until('a third of the PRs', async () => world.pulls().length >= ISSUES / 3, 120_000, why);
      const runningHere = async () => {
        const text = await (await fetch(`${urls[1]}/metrics`)).text();
        return Number(/^booty_jobs_running_here\{worker="[^"]+"\} (\d+)$/m.exec(text)?.[1] ?? 0);
      };
      await until('the second worker to be running jobs', async () => (await runningHere()) > 0, 30_000, why);
      workers[1]!.proc.kill('SIGKILL');
      expect(await workers[1]!.exited).toBe('SIGKILL');
      // Proof the killed worker held leases: a lease that lapsed is a row pg-boss's maintenance
      // moved to retry, or a row fetched again after it had been active (its retry_count counts
      // that). A released lease deletes its row, and an offer makes a new one, so nothing else does.
      let lapsed = 0;
      watching = setInterval(() => {
        void onDatabase(database, (c) =>
          c.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pgboss.job WHERE state = 'retry' OR retry_count > 0`,
          ),
        ).then(
          ({ rows }) => {
            lapsed = Math.max(lapsed, rows[0]!.n);
          },
          () => undefined,
        );
      }, 200);
      await storm;

      const promoted = await until(
        'every job to wait with its PR',
        async () => {
          const jobs = await store.listJobs();
          return jobs.length === ISSUES && jobs.every((j) => j.state === 'promoted') && jobs;
        },
        150_000,
        why,
      );
      clearInterval(watching);
      expect(promoted.map((j) => j.issue).sort((a, b) => a - b)).toEqual(issues);
      expect(lapsed, 'leases that lapsed and moved').toBeGreaterThan(0);

      // Every issue closed: each parked job wakes on whichever gateway takes the event, and ends.
      await Promise.all(issues.map((n) => world.github.closeIssue(OWNER, REPO, n)));
      const ended = await until(
        'every job to end',
        async () => {
          const jobs = await store.listJobs();
          return jobs.every((j) => j.final) && jobs;
        },
        60_000,
        why,
      );
      for (const w of [workers[0]!, workers[2]!]) w.proc.kill('SIGTERM');
      expect(await Promise.all([workers[0]!.exited, workers[2]!.exited])).toEqual([0, 0]);

      // Every job ended exactly once: one ending event, each step's outcome logged once.
      expect(ended.map((j) => j.state)).toEqual(ended.map(() => 'cancelled'));
      for (const job of ended) {
        const events = await store.readStream(job.jobId);
        expect(events.filter((e) => e.type === 'JobCancelled')).toHaveLength(1);
        expect(events.at(-1)!.state).toBe('cancelled');
        // Each step's outcome once: a step that failed may be tried again (a transient fault on a
        // loaded machine), but none is run again once it succeeded.
        const outcomes = events
          .filter((e) => e.type === 'StepSucceeded' || e.type === 'StepFailed')
          .map((e) => ({ key: `${e.data.step}:${e.data.attempt}`, ok: e.type === 'StepSucceeded' }));
        const said = events.map((e) => `${e.type}${e.data.step ? `(${e.data.step}:${e.data.attempt})` : ''}`);
        const again = outcomes.filter((o, i) => outcomes.slice(0, i).some((p) => p.ok && p.key === o.key));
        expect(again, `job ${job.jobId}: ${said.join(' ')}`).toEqual([]);
      }

      // GitHub: one PR per issue (each job's own), one progress comment per issue.
      const pulls = world.pulls();
      expect(pulls).toHaveLength(ISSUES);
      expect(new Set(ended.map((j) => j.pr)).size).toBe(ISSUES);
      expect(ended.map((j) => j.pr).sort((a, b) => a! - b!)).toEqual(
        pulls.map((p) => p.number).sort((a, b) => a - b),
      );
      for (const n of issues) {
        const progress = world.github
          .comments(OWNER, REPO, n)
          .filter((c) => c.body.includes('booty:progress'));
        expect(progress, `issue ${n}`).toHaveLength(1);
      }

      // No finished effect ran again: a PR is created once per issue, even for a job that moved;
      // only what was in flight on the killed worker (at most its slots) may have run twice. (Its
      // last request may still complete on GitHub after it died: the job's next run then finds the
      // PR there, and its own create is refused with 422.)
      const requests = world.github.requests();
      const creates = requests.filter((r) => r.method === 'POST' && /\/pulls$/.test(r.path));
      expect(creates.filter((r) => r.status === 201)).toHaveLength(ISSUES);
      expect(creates.length).toBeLessThanOrEqual(ISSUES + CONCURRENCY);
      const pushes = requests.filter(
        (r) => r.method === 'POST' && r.path.endsWith('git-receive-pack'),
      ).length;
      expect(pushes).toBeGreaterThanOrEqual(ISSUES);
      expect(pushes).toBeLessThanOrEqual(ISSUES + CONCURRENCY);
      const messages = world.anthropic.messages().filter((m) => m.status === 200);
      for (const tool of ['submit_analysis', 'submit_changes'] as const) {
        const perIssue = issues.map(
          (_, i) => messages.filter((m) => m.toolName === tool && m.raw.includes(`[storm ${i + 1}]`)).length,
        );
        expect(Math.min(...perIssue), tool).toBe(1);
        expect(perIssue.reduce((a, b) => a + b, 0) - ISSUES, tool).toBeLessThanOrEqual(CONCURRENCY);
      }

      // The storm did reach every gateway, and some deliveries reached two at once.
      expect(fanout.doubled).toBeGreaterThan(0);
      expect(fanout.answered.filter((n) => n > 0)).toHaveLength(3);
      await fanout.close();
    } finally {
      clearInterval(watching);
      for (const w of workers)
        if (w.proc.exitCode === null && w.proc.signalCode === null) w.proc.kill('SIGKILL');
      await store.close();
      await world.close();
    }
  }, 400_000);
});
