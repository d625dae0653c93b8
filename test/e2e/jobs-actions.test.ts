import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { lockDatabase } from '../../src/store/sqlite/db-lock.js';
import { SqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import { e2eWorld, OWNER, REPO, sampleRepoWith } from './e2e-world.js';

// `booty jobs cancel|retry ID` on a local store: the job ends here, or runs again here as a fresh
// job for its issue; never behind the back of a serve that holds the file.

type World = Awaited<ReturnType<typeof e2eWorld>>;
let world: World | null = null;
afterEach(async () => {
  await world?.close();
  world = null;
});

async function booty(args: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), env });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('booty jobs cancel and retry', () => {
  it('cancels a job that waits, then runs its issue again as a fresh job', async () => {
    world = await e2eWorld('pass', { repoDir: sampleRepoWith('maxAttempts: 3\napproval: plan') });
    const env = world.env({ GITHUB_WEBHOOK_SECRET: '' });
    expect((await booty(['run', `${OWNER}/${REPO}#${world.issue}`], env)).code).toBe(1);
    const store = new SqliteEventStore(env.BOOTY_DB!);
    const [job] = await store.listJobs();
    await store.close();
    expect(job!.state).toBe('awaitingApproval');

    const retryEarly = await booty(['jobs', 'retry', job!.jobId], env);
    expect([retryEarly.code, retryEarly.err]).toEqual([
      1,
      `booty jobs: job ${job!.jobId} cannot be retried: it has not finished (awaitingApproval); \`booty jobs cancel ${job!.jobId}\` ends it (BOOTY_E_JOB_NOT_RETRYABLE)`,
    ]);
    const cancelled = await booty(['jobs', 'cancel', job!.jobId], env);
    expect([cancelled.code, cancelled.out.split('\n').at(-1)]).toEqual([0, `job ${job!.jobId} is cancelled`]);
    const again = await booty(['jobs', 'cancel', job!.jobId], env);
    expect(again.err).toBe(
      `booty jobs: job ${job!.jobId} has finished (cancelled); there is nothing to cancel (BOOTY_E_JOB_FINISHED)`,
    );

    const retried = await booty(['jobs', 'retry', job!.jobId], env);
    expect(retried.err).toBe('');
    expect(retried.out).toMatch(
      new RegExp(`\\njob (\\S+) for ${OWNER}/${REPO}#${world.issue} \\(a fresh run of ${job!.jobId}\\)\\n`),
    );
    expect(retried.out.split('\n').slice(-2)[0]).toBe('awaitingApproval');
    const after = new SqliteEventStore(env.BOOTY_DB!);
    const jobs = await after.listJobs();
    const cancelEvent = (await after.readStream(job!.jobId)).at(-1)!;
    const fresh = (await after.readStream(jobs[1]!.jobId))[0]!;
    await after.close();
    expect(jobs.map((j) => j.state)).toEqual(['cancelled', 'awaitingApproval']);
    expect([cancelEvent.type, cancelEvent.data]).toMatchObject([
      'JobCancelled',
      { reason: 'operator', sender: 'booty jobs cancel' },
    ]);
    expect(fresh.data).toMatchObject({ sender: 'booty jobs retry', run: 2, previous: { jobId: job!.jobId } });
  });

  it('refuses while a serve holds the file, naming the API to ask instead', async () => {
    world = await e2eWorld('pass');
    const env = world.env({ GITHUB_WEBHOOK_SECRET: '', BOOTY_MAX_TOKENS_PER_JOB: '1' });
    await booty(['run', `${OWNER}/${REPO}#${world.issue}`], env);
    const held = await lockDatabase(env.BOOTY_DB!, { waitMs: 0 });
    try {
      const r = await booty(['jobs', 'cancel', 'some-job'], env);
      expect([r.code, r.err]).toEqual([
        2,
        `booty jobs: a booty serve (pid ${process.pid}) holds ${env.BOOTY_DB} and runs its jobs: ask it instead, POST /jobs/some-job/cancel with a write token (see README, API); see \`booty jobs --help\` (BOOTY_E_USAGE)`,
      ]);
    } finally {
      held.release();
    }
  });
});
