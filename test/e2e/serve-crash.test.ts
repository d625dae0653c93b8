import { describe, expect, it } from 'vitest';
import { SqliteEventStore } from '../../src/store/sqlite-event-store.js';
import { e2eWorld, OWNER, REPO } from './e2e-world.js';
import { serve } from './fixtures/crash-serve.js';

// `booty serve` in a child process is killed with SIGKILL right after event k, for every k of a
// job; a new process on the same directory and database finishes it. GitHub and Claude (the local
// simulators) live in the test, so they see every request both processes make.

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
      await second.next(/^SETTLED /);
      second.proc.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } else {
      await first.next(/^SETTLED /);
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
