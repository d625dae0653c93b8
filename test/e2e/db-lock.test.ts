import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { Responder } from '../../sim/anthropic/anthropic-simulator.js';
import { demoResponder } from '../../src/demo/demo-script.js';
import { compiled } from '../support/compiled.js';
import { serveProcess as serve } from '../support/serve-process.js';
import { until } from '../support/until.js';
import { bootyBin, exec } from './cli-process.js';
import { e2eWorld, OWNER, REPO } from './e2e-world.js';

// One writing booty per SQLite file. A second `serve` on the same database is a rolling deploy:
// it waits for the first to exit and then takes over, or gives up with one line naming the holder.
// Never do both run the jobs: the model sees each step asked by one process at a time. `booty run`
// takes the same lock and does not wait; `booty jobs` and `replay` only read, beside any of them.

/** The CLI in its own process with this environment: its exit code and output, a failure included. */
async function cli(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await exec(process.execPath, [bootyBin(), ...args], {
      env: { ...process.env, ...env },
      timeout: 20_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number | null; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const worlds: { close(): Promise<void> }[] = [];
const procs: ReturnType<typeof serve>[] = [];
afterEach(async () => {
  for (const p of procs.splice(0)) {
    p.proc.kill('SIGKILL');
    await p.exited;
  }
  for (const w of worlds.splice(0)) await w.close().catch(() => {});
});

describe('one booty per database', () => {
  it('waits for the first to exit, then takes its jobs over; or says who holds the database', async () => {
    let release = false;
    const asked: number[] = [];
    const scripted = demoResponder('pass');
    const responder: Responder = async (request) => {
      if (request.toolName === 'submit_analysis') {
        asked.push(Date.now());
        await until('the release', () => release, 120_000);
      }
      return scripted(request);
    };
    const w = await e2eWorld('pass', { responder });
    worlds.push(w);
    const env = w.env({ LOG_LEVEL: 'warn' });

    const first = serve(env);
    procs.push(first);
    w.github.setWebhook({ url: `${await first.url}/webhooks`, secret: 'e2e-webhook-secret' });
    await w.label();
    await until('the job to ask the model', () => asked.length === 1);

    // A second process that will not wait: one line, naming the first one's pid, exit 1.
    const impatient = serve({ ...env, BOOTY_LOCK_WAIT_MS: '300' });
    expect(await impatient.exited).toBe(1);
    const lines = impatient.err().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^booty serve: another booty \(pid \d+\) holds the database /);
    expect(lines[0]).toContain(`(pid ${first.proc.pid})`);

    // `booty run` on the issue whose job the server runs: it runs no step of it (the model is not
    // asked again), and says in one line who holds the database, without waiting.
    const run = await cli(['run', `${OWNER}/${REPO}#${w.issue}`, '--db', env.BOOTY_DB!], env);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([
      `booty run: another booty (pid ${first.proc.pid}) holds the database ${env.BOOTY_DB}; stop it first, or give this one its own BOOTY_DB (many workers on one database is what the PostgreSQL store is for) (BOOTY_E_DB_LOCKED)`,
    ]);
    expect(asked).toHaveLength(1);
    // The commands that only read work beside it.
    const listed = await cli(['jobs', '--json', '--db', env.BOOTY_DB!], env);
    const [job] = JSON.parse(listed.stdout) as { jobId: string; state: string }[];
    expect(job).toMatchObject({ state: 'analyzing' });
    const replay = await cli(['replay', job!.jobId, '--verify', '--db', env.BOOTY_DB!], env);
    expect(replay).toMatchObject({ code: 0, stderr: '' });

    // A second that waits: it does not start, nor resume the job, while the first runs.
    const next = serve({ ...env, BOOTY_LOCK_WAIT_MS: '30000' });
    procs.push(next);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(next.out()).not.toContain('listening');
    expect(asked).toHaveLength(1);

    // The first exits (a deploy's SIGTERM): the second takes over and finishes the job.
    first.proc.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    release = true;
    w.github.setWebhook({ url: `${await next.url}/webhooks`, secret: 'e2e-webhook-secret' });
    await until('the PR to be promoted', () => w.pulls().some((p) => !p.draft), 60_000);
    expect(w.pulls()).toHaveLength(1);
    // Asked once by each process, one after the other: the first's call was cut off by its exit.
    expect(asked).toHaveLength(2);

    // Read-only commands work beside a running server.
    const jobs = execFileSync(process.execPath, [compiled('src/cli/bin.ts'), 'jobs', '--db', env.BOOTY_DB!], {
      encoding: 'utf8',
    });
    expect(jobs).toContain(`${OWNER}/${REPO}#${w.issue}`);
  }, 120_000);
});
