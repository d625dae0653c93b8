import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../src/env.js';
import { catalogue } from '../../src/events/catalogue.js';
import { startBooty } from '../../src/main/serve.js';
import { captureLog, deliver, labelPayload, SECRET } from '../gateway/gateway-harness.js';
import { tempDir } from '../support/job-harness.js';
import { freshDatabase } from '../support/postgres-database.js';
import { scriptedEffects } from '../support/scripted-effects.js';
import { sleep, until } from '../support/until.js';

// The rule of docs/upgrades.md, enforced: the previous release's worker (machine 8, JobRequested
// v7: a bundle of it under test/fixtures/releases/, made by scripts/bundle-release-worker.mjs)
// runs as a real process beside this build's on one PostgreSQL database, both taking jobs from
// one queue. Both finish their jobs and no effect runs twice; a job this build logged
// (JobRequested v8) is refused by the older worker with BOOTY_E_EVENT_UNKNOWN_VERSION, which
// writes nothing to it, and this build runs it.

const RELEASE = 'machine-8';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bundle = path.join(root, 'test/fixtures/releases', RELEASE, 'worker.mjs');

const workerEnv = (url: string, name: string) => {
  const dir = tempDir(`booty-mixed-${name}-`);
  return {
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'info',
    GITHUB_WEBHOOK_SECRET: SECRET,
    BOOTY_DATABASE_URL: url,
    BOOTY_DB: path.join(dir, 'booty.db'),
    BOOTY_WORKDIR: path.join(dir, 'work'),
    BOOTY_WORKER_ID: name,
    BOOTY_DRAIN_MS: '0',
    BOOTY_CONCURRENCY: '2',
    BOOTY_LEASE_SECONDS: '2',
    BOOTY_LEASE_POLL_MS: '100',
  };
};

/** This build's worker, as `booty serve` composes it, with scripted effects that take `delayMs`. */
async function thisBuild(url: string, name: string, delayMs: number) {
  const effects = scriptedEffects({ delayMs });
  const { log, lines } = captureLog();
  const booty = await startBooty({ env: loadEnv(workerEnv(url, name)), effects: effects.impls, log });
  return { booty, effects, lines };
}

/** The previous release's worker, a process of its own: its URL, its effects and its log lines. */
function previousRelease(url: string) {
  const proc = spawn(process.execPath, [bundle], {
    cwd: root,
    env: { ...process.env, ...workerEnv(url, 'old'), RELEASE_EFFECT_DELAY_MS: '20' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.on('data', (d) => {
    out += d;
  });
  proc.stderr.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
  const lines = () => out.split('\n');
  return {
    url: () =>
      until(
        'the previous release to listen',
        () => /^listening (\S+)$/m.exec(out)?.[1],
        20_000,
        () => out,
      ),
    effects: () => lines().flatMap((l) => /^effect \S+ (\S+)$/.exec(l)?.[1] ?? []),
    logged: () =>
      lines().flatMap((l) => (l.startsWith('{') ? [JSON.parse(l) as Record<string, unknown>] : [])),
    out: () => out,
    async stop() {
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

describe(`this build beside the previous release (${RELEASE}) on one PostgreSQL database`, () => {
  it('given both workers on one queue, then both finish their jobs, no effect runs twice, and the older refuses the job this build logged with a clear code', async () => {
    expect(fs.existsSync(bundle), `${bundle}: run scripts/bundle-release-worker.mjs`).toBe(true);
    const url = await freshDatabase();
    // A job this build logs, handed back before its first step is logged: it waits in the queue.
    const first = await thisBuild(url, 'new-1', 2_000);
    const newer = (await deliver(first.booty.server.url, { payload: labelPayload('labeled', { issue: 1 }) }))
      .body.jobId as string;
    await until('its first step to be under way', () => first.effects.log.length === 1);
    await first.booty.close();

    const old = previousRelease(url);
    let second: Awaited<ReturnType<typeof thisBuild>> | null = null;
    try {
      const oldUrl = await old.url();
      // The older worker meets the newer job's log: it refuses it with the code, not folds it.
      const refusal = await until(
        'the previous release to refuse the newer job',
        () => old.logged().find((l) => l.jobId === newer && l.code === 'BOOTY_E_EVENT_UNKNOWN_VERSION'),
        20_000,
        old.out,
      );
      expect(refusal.code).toBe('BOOTY_E_EVENT_UNKNOWN_VERSION');

      // Jobs for both: the older worker's gateway logs two, this build's one; either worker runs any.
      // The older worker's are under way before this build starts, so both run some however the
      // machine's load has the two poll the queue.
      const labelled = async (at: string, issue: number) => {
        const r = await deliver(at, { payload: labelPayload('labeled', { issue }) });
        expect(r.status).toBe(202);
        return r.body.jobId as string;
      };
      const fromOld = await Promise.all([labelled(oldUrl, 2), labelled(oldUrl, 3)]);
      await until('the previous release to run a step', () => old.effects().length > 0, 20_000, old.out);
      second = await thisBuild(url, 'new-2', 20);
      const jobIds = [newer, ...fromOld, await labelled(second.booty.server.url, 4)];
      const store = second.booty.store;
      const [requested] = await store.readStream(newer);
      expect(requested!.schemaVersion).toBe(catalogue.JobRequested.version);
      // Each refusal delays the newer job, twice as long each time (docs/upgrades.md), and the
      // older worker refuses it as often as it takes it first: every job is promoted within 45 s,
      // or within 30 s of the end of the last delay the older worker set.
      const waitedFrom = Date.now();
      const lastDelayEnd = () =>
        Math.max(
          0,
          ...old
            .logged()
            .filter((l) => l.jobId === newer && l.code === 'BOOTY_E_JOB_HALTED')
            .map((l) => Date.parse((l.err as { params: { at: string } }).params.at)),
        );
      for (;;) {
        const jobs = await Promise.all(jobIds.map((j) => store.getJob(j)));
        if (jobs.every((j) => j?.state === 'promoted')) break;
        if (Date.now() > Math.max(waitedFrom + 45_000, lastDelayEnd() + 30_000))
          throw new Error(`timed out waiting for every job to be promoted\n${old.out()}`);
        await sleep(50);
      }

      // The older worker wrote nothing to the newer job, and ran none of its effects.
      for (const event of await store.readStream(newer)) expect(event.meta.worker).not.toBe('old');
      expect(old.effects().filter((k) => k.startsWith(`${newer}:`))).toEqual([]);
      // No effect ran twice, on either worker; both ran some. (The first worker's one call was cut
      // short by its stop, unlogged, and so runs again: that is a hand-back, not a repeat.)
      const calls = [...second.effects.log, ...old.effects()];
      expect(calls.filter((k, i) => calls.indexOf(k) !== i)).toEqual([]);
      expect(old.effects().length).toBeGreaterThan(0);
      expect(second.effects.log.length).toBeGreaterThan(0);
      // Jobs the older worker logged (JobRequested v7) fold in this build as they ran.
      const olderJobs = [];
      for (const jobId of jobIds.slice(1, 3)) {
        const [req] = await store.readStream(jobId);
        olderJobs.push(req!.meta.worker);
      }
      expect(olderJobs).toEqual(['old', 'old']);
    } finally {
      await second?.booty.close();
      await old.stop();
    }
  }, 180_000);
});
