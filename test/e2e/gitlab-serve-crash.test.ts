import { describe, expect, it } from 'vitest';
import { SqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import { crashingServe } from './fixtures/crashing-serve.js';
import { GL_BOT, gitlabWorld, PROJECT } from './gitlab-world.js';

// serve-crash.test.ts on GitLab: `booty serve` (BOOTY_FORGE=gitlab) in a child process killed with
// SIGKILL right after every event of a job, each new process taking the job from its log, against
// the same job run uninterrupted. The GitLab simulator lives in the test and counts every request.

async function runJob(crashes: boolean) {
  const world = await gitlabWorld('pass');
  try {
    const env = world.env({ LOG_LEVEL: 'warn' });
    const booty = crashingServe({ env, github: world.hooked }, crashes ? 1 : null);
    await booty.start();
    world.label();
    await booty.settled('promoted');
    await booty.stop();
    const store = new SqliteEventStore(env.BOOTY_DB!);
    const [job] = await store.listJobs();
    const events = await store.readStream(job!.jobId);
    await store.close();
    const requests = world.gitlab.requests();
    const count = (method: string, path: RegExp) =>
      requests.filter((r) => r.method === method && path.test(r.path)).length;
    const issue = world.gitlab.issues(PROJECT).find((i) => i.iid === world.issue)!;
    return {
      kills: booty.kills,
      end: {
        state: job!.state,
        attempts: job!.attempts,
        events: events.map((e) => e.type),
        mergeRequests: world.mergeRequests().map((mr) => ({ title: mr.title, state: mr.state })),
        progressNotes: world.notes().filter((n) => n.body.includes('booty:progress')).length,
        eyes: issue.awards.filter((a) => a.name === 'eyes' && a.user === GL_BOT).length,
      },
      effects: {
        analyze: world.modelCalls('submit_analysis'),
        changes: world.modelCalls('submit_changes'),
        createMr: count('POST', /\/merge_requests$/),
        // The ready title: the one PUT on the MR that drops its Draft: prefix.
        updateMr: count('PUT', /\/merge_requests\/\d+$/),
        createNote: count('POST', /\/issues\/\d+\/notes$/),
        push: count('POST', /git-receive-pack$/),
      },
    };
  } finally {
    await world.close();
  }
}

describe('booty serve on GitLab under SIGKILL', () => {
  it('finishes a GitLab job killed after every one of its events exactly as the uninterrupted one: no GitLab action repeated', async () => {
    const [clean, crashed] = await Promise.all([runJob(false), runJob(true)]);
    expect(clean.kills).toBe(0);
    expect(clean.end).toMatchObject({
      state: 'promoted',
      attempts: 1,
      mergeRequests: [{ state: 'opened' }],
      progressNotes: 1,
      eyes: 1,
    });
    expect(clean.end.mergeRequests[0]!.title).not.toMatch(/^Draft:/);
    expect(clean.effects).toEqual({
      analyze: 1,
      changes: 1,
      createMr: 1,
      updateMr: 1,
      createNote: 1,
      push: 1,
    });
    expect(crashed.kills).toBe(clean.end.events.length);
    expect(crashed.end).toEqual(clean.end);
    expect(crashed.effects).toEqual(clean.effects);
  }, 400_000);
});
