import { type ChildProcess, spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SqliteEventStore } from '../../src/store/sqlite-event-store.js';
import { compiled } from '../support/compiled.js';
import { e2eWorld, OWNER, REPO } from './e2e-world.js';

// `booty serve` in a child process is killed with SIGKILL right after event k, for every k of a
// job; a new process on the same directory and database finishes it. GitHub and Claude (the local
// simulators) live in the test, so they see every request both processes make.

const child = () => compiled('test/e2e/fixtures/serve-child.ts');

interface Serve {
  proc: ChildProcess;
  url: Promise<string>;
  /** Resolves with the output once a line matches, or rejects when the process exits first. */
  waitFor(pattern: RegExp): Promise<string>;
  exited: Promise<NodeJS.Signals | number | null>;
}

function serve(env: Record<string, string>): Serve {
  const proc = spawn(process.execPath, [child()], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const waiters: { pattern: RegExp; resolve: (s: string) => void; reject: (e: Error) => void }[] = [];
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  proc.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    for (const w of [...waiters]) {
      if (w.pattern.test(out)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(out);
      }
    }
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => {
    proc.on('exit', (code, signal) => {
      for (const w of waiters.splice(0))
        w.reject(
          new Error(`serve exited (${signal ?? code}) before ${w.pattern}:\n${out}\n${stderr.slice(-2000)}`),
        );
      resolve(signal ?? code);
    });
  });
  const waitFor = (pattern: RegExp) =>
    pattern.test(out)
      ? Promise.resolve(out)
      : new Promise<string>((resolve, reject) => waiters.push({ pattern, resolve, reject }));
  const url = waitFor(/LISTENING (\S+)\n/).then((o) => /LISTENING (\S+)\n/.exec(o)![1]!);
  return { proc, url, waitFor, exited };
}

/** Runs one job in a world, killing the first process after event `killAt` (or never). */
async function runJob(killAt: number | null) {
  const world = await e2eWorld('pass');
  try {
    const env = world.env({ LOG_LEVEL: 'warn' });
    const first = serve({ ...env, ...(killAt ? { KILL_AT: String(killAt) } : {}) });
    world.github.setWebhook({ url: `${await first.url}/webhooks`, secret: env.GITHUB_WEBHOOK_SECRET! });
    await world.label();
    if (killAt) {
      expect(await first.exited).toBe('SIGKILL');
      const second = serve(env);
      await second.url;
      await second.waitFor(/SETTLED /);
      second.proc.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } else {
      await first.waitFor(/SETTLED /);
      await first.url;
      first.proc.kill('SIGTERM');
      expect(await first.exited).toBe(0);
    }
    const store = new SqliteEventStore(env.BOOTY_DB!);
    const [job] = await store.listJobs();
    const events = await store.readStream(job!.jobId);
    await store.close();
    const requests = world.github.requests();
    const count = (method: string, suffix: RegExp) =>
      requests.filter((r) => r.method === method && suffix.test(r.path)).length;
    return {
      state: job!.state,
      attempts: job!.attempts,
      events: events.length,
      pulls: world.pulls().map((p) => ({ draft: p.draft, head: p.head })),
      progressComments: world.comments().filter((c) => c.body.includes('booty:progress')).length,
      eyes: world.github.reactions(OWNER, REPO, world.issue).filter((r) => r.content === 'eyes').length,
      effects: {
        analyze: world.modelCalls('submit_analysis'),
        changes: world.modelCalls('submit_changes'),
        createPr: count('POST', /\/pulls$/),
        promote: requests.filter((r) => r.method === 'POST' && r.path.endsWith('/graphql')).length,
        push: count('POST', /git-receive-pack$/),
      },
    };
  } finally {
    await world.close();
  }
}

describe('booty serve under SIGKILL', () => {
  it('finishes every job killed after event k exactly as the uninterrupted one, with one PR and one comment', async () => {
    const clean = await runJob(null);
    expect(clean).toMatchObject({
      state: 'promoted',
      attempts: 1,
      pulls: [{ draft: false }],
      progressComments: 1,
      eyes: 1,
    });
    expect(clean.effects).toMatchObject({ analyze: 1, changes: 1, createPr: 1, promote: 1, push: 1 });

    const ks = Array.from({ length: clean.events }, (_, i) => i + 1);
    const failures: string[] = [];
    for (let i = 0; i < ks.length; i += 2) {
      await Promise.all(
        ks.slice(i, i + 2).map(async (k) => {
          const crashed = await runJob(k);
          const { effects, ...rest } = crashed;
          const { effects: cleanEffects, ...cleanRest } = clean;
          if (JSON.stringify(rest) !== JSON.stringify(cleanRest))
            failures.push(`k=${k}: ${JSON.stringify(rest)}`);
          // Killed between events, no effect was in flight: none may run twice.
          if (JSON.stringify(effects) !== JSON.stringify(cleanEffects))
            failures.push(`k=${k}: effects ${JSON.stringify(effects)}`);
        }),
      );
    }
    expect(failures).toEqual([]);
  }, 400_000);
});
