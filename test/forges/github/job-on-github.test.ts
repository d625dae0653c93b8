import { afterEach, describe, expect, it } from 'vitest';
import { createProgressReporter } from '../../../src/effects/progress-reporter.js';
import { createGitHubEffects } from '../../../src/forges/github/github-effects.js';
import { githubProgress } from '../../../src/forges/github/github-forge.js';
import type { EffectImpls } from '../../../src/machines/effect-contract.js';
import { renderProgress } from '../../../src/views/progress-render.js';
import { harness } from '../../support/job-harness.js';
import { scriptedEffects } from '../../support/scripted-effects.js';
import { pushBranch, sampleDir, simFixture } from './sim-fixture.js';

// Whole jobs through the supervisor, with scripted model and tests but the real GitHub effects and
// progress reporter against the simulator: what a person sees on the issue and the PR.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function run(
  options: { self?: boolean; arrange?: (sim: Awaited<ReturnType<typeof simFixture>>['sim']) => void } = {},
) {
  const { sim, clients } = await simFixture();
  closers.push(() => sim.close());
  await sim.createRepo('acme', 'widgets', { fromDir: sampleDir() });
  sim.createIssue('acme', 'widgets', { title: 'Add an add() function' });
  options.arrange?.(sim);
  const github = createGitHubEffects({ clients });
  const impls: EffectImpls = {
    ...scriptedEffects().impls,
    // The workspace's push stands in here as a real push over HTTP with the job's credential.
    openPr: async (input) => {
      const headSha = await pushBranch(
        clients.gitRemoteUrl(input.job.repo),
        await clients.gitCredentials(input.job),
        input.job.branch,
      );
      return github.openDraftPr(input, { headSha });
    },
    promotePr: github.promotePr,
  };
  let reporter: ReturnType<typeof createProgressReporter>;
  const h = harness(
    {},
    {
      effects: impls,
      isSelf: () => options.self === true,
      observers: [
        {
          changed: (c) => reporter.changed(c),
          settled: (id, s, v) => reporter.settled(id, s, v),
        },
      ],
    },
  );
  reporter = createProgressReporter({ comments: githubProgress(clients), store: h.store, retryDelayMs: 1 });
  const r = await h.request();
  if (r.outcome !== 'created') throw new Error(r.outcome);
  const snapshot = await h.supervisor.whenFinished(r.jobId);
  const comments = sim.comments('acme', 'widgets', 1);
  return { sim, h, jobId: r.jobId, snapshot, comments };
}

describe('a job on the simulated GitHub', () => {
  it('opens a draft, promotes it, and the one progress comment says so', async () => {
    const { sim, h, jobId, snapshot, comments } = await run();
    expect(snapshot.value).toBe('promoted');
    expect(sim.pulls('acme', 'widgets').map((p) => [p.number, p.draft])).toEqual([[2, false]]);
    expect(comments.map((c) => c.body)).toEqual([renderProgress(snapshot)]);
    expect(comments[0]!.body).toContain(
      `**Pull request:** [#2](${sim.url}/acme/widgets/pull/2) (ready for review)`,
    );
    expect((await h.store.getJob(jobId))?.reportedVersion).toBe(await h.store.streamVersion(jobId));
  });

  it('keeps a self-modification draft, and the comment says a human must review it', async () => {
    const { sim, snapshot, comments } = await run({ self: true });
    // The job does not end: it waits with its draft for the human.
    expect(snapshot.status).toBe('active');
    expect(snapshot.value).toBe('prOpened');
    expect(snapshot.context.outcome?.reason).toBe('self-modification');
    expect(sim.pulls('acme', 'widgets').map((p) => p.draft)).toEqual([true]);
    expect(sim.pulls('acme', 'widgets')[0]!.body).toContain('a human reviews it');
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toContain('### ⏸️ booty opened a draft pull request for a human to review');
    expect(comments[0]!.body).toContain('a human must review it');
    expect(comments[0]!.body).toContain('⏸️ Mark it ready for review — held as draft');
  });

  it('shows a failed promotion without failing the job: it waits with its draft', async () => {
    const { sim, snapshot, comments } = await run({
      arrange: (s) =>
        s.fault('graphql', {
          kind: 'graphql-error',
          type: 'FORBIDDEN',
          message: 'Resource not accessible by integration',
        }),
    });
    expect(snapshot.status).toBe('active');
    expect(snapshot.value).toBe('prOpened');
    expect(snapshot.context.outcome?.reason).toBe('promotion-failed');
    expect(sim.pulls('acme', 'widgets').map((p) => p.draft)).toEqual([true]);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toContain(
      '### ⚠️ booty opened a draft pull request but could not mark it ready',
    );
    expect(comments[0]!.body).toContain('⚠️ Mark it ready for review — failed; the pull request stays draft');
    expect(comments[0]!.body).toContain('FORBIDDEN: Resource not accessible by integration');
  });
});
