import { describe, expect, it } from 'vitest';
import { SqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import { e2eWorld, OWNER, REPO } from './e2e-world.js';
import { crashingServe } from './fixtures/crashing-serve.js';

// `booty serve` in a child process is killed with SIGKILL right after event k, for every k of a
// job: each new process on the same directory and database takes the job from its log and dies
// after the next event, until the job is done. GitHub and Claude (the local simulators) live in the
// test, so they see every request every process makes.

/** Runs one job in a world, killing serve after every event (or never). */
async function runJob(crashes: boolean) {
  const world = await e2eWorld('pass');
  try {
    const env = world.env({ LOG_LEVEL: 'warn' });
    const booty = crashingServe({ env, github: world.github }, crashes ? 1 : null);
    await booty.start();
    await world.label();
    await booty.settled('promoted');
    await booty.stop();
    const store = new SqliteEventStore(env.BOOTY_DB!);
    const [job] = await store.listJobs();
    const events = await store.readStream(job!.jobId);
    await store.close();
    const requests = world.github.requests();
    const count = (method: string, suffix: RegExp) =>
      requests.filter((r) => r.method === method && suffix.test(r.path)).length;
    return {
      kills: booty.kills,
      end: {
        state: job!.state,
        attempts: job!.attempts,
        events: events.map((e) => e.type),
        pulls: world.pulls().map((p) => ({ draft: p.draft, head: p.head })),
        progressComments: world.comments().filter((c) => c.body.includes('booty:progress')).length,
        eyes: world.github.reactions(OWNER, REPO, world.issue).filter((r) => r.content === 'eyes').length,
      },
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
  it('finishes a job killed after every one of its events exactly as the uninterrupted one, with one PR and one comment', async () => {
    const [clean, crashed] = await Promise.all([runJob(false), runJob(true)]);
    expect(clean.kills).toBe(0);
    expect(clean.end).toMatchObject({
      state: 'promoted',
      attempts: 1,
      pulls: [{ draft: false }],
      progressComments: 1,
      eyes: 1,
    });
    expect(clean.effects).toEqual({ analyze: 1, changes: 1, createPr: 1, promote: 1, push: 1 });
    // Killed after each event, the last one included: one process per event.
    expect(crashed.kills).toBe(clean.end.events.length);
    expect(crashed.end).toEqual(clean.end);
    // Killed between events, no effect was in flight: none may run twice.
    expect(crashed.effects).toEqual(clean.effects);
  }, 400_000);
});
