import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { SqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import { e2eWorld, OWNER, REPO, sampleRepoWith } from './e2e-world.js';

// `booty run owner/repo#N`: one job with no webhook, the issue read through the API.

type World = Awaited<ReturnType<typeof e2eWorld>>;
let world: World | null = null;
afterEach(async () => {
  await world?.close();
  world = null;
});

async function run(args: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), env });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('booty run', () => {
  it('reads the issue through the API and runs its job to a promoted PR', async () => {
    world = await e2eWorld('refine');
    const env = world.env({ GITHUB_WEBHOOK_SECRET: '' });
    const r = await run(['run', `${OWNER}/${REPO}#${world.issue}`], env);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/job \S+ for demo\/tiny-durations#1/);
    expect(r.out).toContain('refining');
    expect(r.out).toContain(
      'promoted: The tests pass; the pull request is ready for review.\n  http://127.0.0.1:',
    );
    expect(r.out.split('\n').at(-1)).toBe(
      '  The job waits with its pull request for a review and the merge; `booty serve` takes its reviews and CI from here.',
    );
    expect(world.pulls()).toEqual([expect.objectContaining({ draft: false })]);

    const store = new SqliteEventStore(env.BOOTY_DB!);
    const [job] = await store.listJobs();
    const first = (await store.readStream(job!.jobId))[0]!;
    await store.close();
    // The job was made from the issue as the API returned it, not from a webhook.
    expect(first.data).toMatchObject({
      sender: 'booty run',
      issue: { number: world.issue, title: expect.stringContaining('parseDuration') },
    });
  });

  it('a job that parks for its plan’s approval exits 1, saying what a writer answers', async () => {
    world = await e2eWorld('pass', { repoDir: sampleRepoWith('maxAttempts: 3\napproval: plan') });
    const r = await run(['run', `${OWNER}/${REPO}#${world.issue}`], world.env({ GITHUB_WEBHOOK_SECRET: '' }));
    expect(r.err).toBe('');
    expect(r.code).toBe(1);
    expect(r.out.split('\n').slice(-2)).toEqual([
      'awaitingApproval',
      "  The job waits in awaitingApproval for a writer's answer to its plan on the issue: `@booty approve`, `@booty revise <what to change>` or `@booty cancel`; `booty serve` takes it from there.",
    ]);
    expect(world.pulls()).toEqual([]);
  });

  it('a draft whose tests still fail exits 1, saying what starts another round', async () => {
    world = await e2eWorld('exhausted');
    const r = await run(['run', `${OWNER}/${REPO}#${world.issue}`], world.env({ GITHUB_WEBHOOK_SECRET: '' }));
    expect(r.err).toBe('');
    expect(r.code).toBe(1);
    expect(r.out).toContain('\nprOpened: The tests still fail after 3 of 3 attempts');
    expect(r.out.split('\n').at(-1)).toBe(
      "  The job waits with its draft pull request: a writer's review, `@booty <what to change>` or `@booty retry` starts another round (`@booty cancel` ends the job); `booty serve` takes it from there.",
    );
  });

  it('a job that parks at its token budget exits 1, saying what @booty continue adds', async () => {
    world = await e2eWorld('pass');
    const env = world.env({
      GITHUB_WEBHOOK_SECRET: '',
      BOOTY_MAX_TOKENS_PER_JOB: '1',
      BOOTY_BUDGET_STEP: '5000',
    });
    const r = await run(['run', `${OWNER}/${REPO}#${world.issue}`], env);
    expect(r.err).toBe('');
    expect(r.code).toBe(1);
    expect(r.out.split('\n').at(-1)).toBe(
      "  The job waits in budgetExhausted at its token budget: a writer's `@booty continue` on the issue raises it by 5000 tokens and resumes where it stopped (`@booty cancel` ends it); `booty serve` takes it from there.",
    );
    expect(r.out).toContain('\nbudgetExhausted\n');
  });

  it('refuses a PostgreSQL store, from --db or BOOTY_DATABASE_URL, in one line saying to label the issue', async () => {
    const env = { ANTHROPIC_API_KEY: 'sk-test', PATH: process.env.PATH ?? '' };
    const url = 'postgres://booty@127.0.0.1:1/booty';
    const byFlag = await run(['run', `${OWNER}/${REPO}#1`, '--db', url], env);
    expect(byFlag.code).toBe(2);
    expect(byFlag.err).toBe(
      'booty run: booty run takes a SQLite store only: on a PostgreSQL store (--db) the workers run the jobs, so label the issue for them instead; see `booty run --help` (BOOTY_E_USAGE)',
    );
    const byEnv = await run(['run', `${OWNER}/${REPO}#1`], { ...env, BOOTY_DATABASE_URL: url });
    expect(byEnv.code).toBe(2);
    expect(byEnv.err).toContain('on a PostgreSQL store (BOOTY_DATABASE_URL) the workers run the jobs');
    // Refused before anything ran.
    expect(byFlag.out).toBe('');
  });

  it('names a malformed target and a missing API key in one line', async () => {
    world = await e2eWorld('pass');
    const bad = await run(['run', 'not-a-target'], world.env());
    expect(bad.code).toBe(2);
    expect(bad.err).toBe(
      'booty run: expected owner/repo#N, not "not-a-target"; see `booty run --help` (BOOTY_E_USAGE)',
    );
    const noKey = await run(['run', `${OWNER}/${REPO}#1`], world.env({ ANTHROPIC_API_KEY: '' }));
    expect(noKey.code).toBe(1);
    expect(noKey.err).toContain('environment variable ANTHROPIC_API_KEY is missing');
  });
});
