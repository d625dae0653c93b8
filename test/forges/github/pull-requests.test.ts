import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isBootyError } from '../../../src/errors.js';
import { createGitHubClients } from '../../../src/forges/github/clients.js';
import { createGitHubEffects } from '../../../src/forges/github/github-effects.js';
import { effectInput, type JobContext } from '../../../src/machines/job-context.js';
import { testRun } from '../../support/scripted-effects.js';
import { jobContext, pushBranch, sampleDir, simFixture } from './sim-fixture.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function setup() {
  const f = await simFixture();
  closers.push(() => f.sim.close());
  await f.sim.createRepo('acme', 'widgets', { fromDir: sampleDir() });
  f.sim.createIssue('acme', 'widgets', { title: 'Add an add() function' });
  const effects = createGitHubEffects({ clients: f.clients });
  const job = readyJob();
  const headSha = await pushBranch(
    f.clients.gitRemoteUrl(job.repo),
    await f.clients.gitCredentials(job),
    job.branch,
  );
  return { ...f, effects, job, headSha };
}

function readyJob(overrides: Partial<JobContext> = {}): JobContext {
  const base = jobContext();
  return {
    ...base,
    workspace: { baseSha: 'a'.repeat(40), defaultBranch: 'main' },
    analysis: {
      summary: 'Adds add(a, b) to the library.',
      changeKind: 'feat',
      filesToRead: [],
      filesToChange: ['add.js'],
      testsToAdd: ['test/add.test.js'],
      acceptanceCriteria: [],
      risks: [],
    },
    attempt: 2,
    changes: [
      { path: 'add.js', content: 'x' },
      { path: 'test/add.test.js', content: 'y' },
    ],
    baseline: { ...testRun(false, ['flaky thing']), at: 1 },
    attempts: [
      {
        n: 1,
        explanation: '',
        proposed: [],
        files: ['add.js'],
        rejected: [],
        addedTests: [],
        applied: true,
        test: null,
      },
      {
        n: 2,
        explanation: 'Adds add(a, b).',
        proposed: [],
        files: ['add.js', 'test/add.test.js'],
        rejected: [],
        addedTests: ['test/add.test.js'],
        applied: true,
        test: { ...testRun(true), durationMs: 1234, at: 2 },
      },
    ],
    ...overrides,
  };
}

const openInput = (job: JobContext) => effectInput(job, 'openPr');
const noCi = (sha: string) => ({ sha, state: 'none', total: 0, failing: [], rerunnable: [] });

describe('draft pull request and promotion', () => {
  it('opens a draft with the evidence and the job marker, then promotes it', async () => {
    const { sim, effects, job, headSha } = await setup();

    const pr = await effects.openDraftPr(openInput(job), { headSha });

    expect(pr).toEqual({
      number: 2,
      url: `${sim.url}/acme/widgets/pull/2`,
      nodeId: expect.stringMatching(/^PR_/),
      draft: true,
      headSha,
      created: true,
    });
    const [stored] = sim.pulls('acme', 'widgets');
    expect(stored).toMatchObject({
      draft: true,
      head: job.branch,
      base: 'main',
      title: 'feat: Add an add() function',
      headSha,
    });
    for (const part of [
      '<!-- booty:job=job-1 -->',
      // The summary is the model's own account of its last applied attempt, not the plan.
      '## Summary\n\nAdds add(a, b).\n\nCloses #1',
      '- `add.js`',
      '- `test/add.test.js`',
      '| Result | ✅ passed |',
      '| Command | `npm test` |',
      '| After the change | 1 test: 1 passed, 0 failed, 0 skipped; exited 0 in 1.2 s |',
      '| Before the change | 2 tests: 1 passed, 1 failed, 0 skipped; exited 1 |',
      '| Attempt | 2 of 3 |',
      '1 test already failing before the change:\n- `flaky thing`',
      '0 tokens (0 in, 0 out, 0 cache read, 0 cache write) · $0.0000',
    ]) {
      expect(stored!.body).toContain(part);
    }
    expect(stored!.body).not.toContain('Adds add(a, b) to the library.');

    const promoted = await effects.promotePr(
      { ...effectInput({ ...job, pr: { ...pr, at: 3 } }, 'promotePr') },
      { signal: new AbortController().signal },
    );
    // No CI on the repository: nothing holds the promotion back.
    expect(promoted).toEqual({ draft: false, ci: { ...noCi(headSha), at: expect.any(Number) } });
    expect(sim.pulls('acme', 'widgets')[0]!.draft).toBe(false);

    // Resumed after a crash: both steps run again and change nothing.
    const graphqlCalls = sim.requests().filter((r) => r.operation === 'graphql').length;
    expect(await effects.openDraftPr(openInput(job), { headSha })).toEqual({
      ...pr,
      draft: false,
      created: false,
    });
    expect(
      await effects.promotePr(effectInput({ ...job, pr: { ...pr, at: 3 } }, 'promotePr'), {
        signal: new AbortController().signal,
      }),
    ).toEqual({ draft: false, ci: { ...noCi(headSha), at: expect.any(Number) } });
    expect(sim.pulls('acme', 'widgets')).toHaveLength(1);
    expect(sim.requests().filter((r) => r.operation === 'graphql')).toHaveLength(graphqlCalls);
  });

  it('keeps a self-modification draft and says a human must review it', async () => {
    const { sim, effects, headSha } = await setup();
    const job = readyJob({ settings: { ...readyJob().settings, selfModification: true } });
    const pr = await effects.openDraftPr(openInput(job), { headSha });
    expect(sim.pulls('acme', 'widgets')[0]!.body).toContain('It stays a draft until a human reviews it');
    const result = await effects.promotePr(effectInput({ ...job, pr: { ...pr, at: 3 } }, 'promotePr'), {
      signal: new AbortController().signal,
    });
    expect(result).toEqual({ draft: true });
    expect(sim.pulls('acme', 'widgets')[0]!.draft).toBe(true);
    expect(sim.requests().filter((r) => r.operation === 'graphql')).toHaveLength(0);
  });

  it('leaves exactly one PR when the create reply is lost', async () => {
    const { sim, effects, job, headSha } = await setup();
    sim.fault('pulls/create', { kind: 'lost-reply' });

    const pr = await effects.openDraftPr(openInput(job), { headSha });

    expect(sim.pulls('acme', 'widgets').map((p) => p.number)).toEqual([pr.number]);
    expect(pr.created).toBe(true);
    expect(
      sim
        .requests()
        .filter((r) => r.operation === 'pulls/create')
        .map((r) => r.status),
    ).toEqual([0]);
    // The machine retrying the whole step finds the same PR.
    expect((await effects.openDraftPr(openInput(job), { headSha })).number).toBe(pr.number);
    expect(sim.pulls('acme', 'widgets')).toHaveLength(1);
  });

  it('retries nothing itself: a 502 fails the step, retryable, and a secondary rate limit names its wait', async () => {
    const { sim, effects, job, headSha } = await setup();
    sim.fault('pulls/list', { kind: 'bad-gateway' });
    const unavailable = await effects.openDraftPr(openInput(job), { headSha }).catch((e) => e);
    expect(isBootyError(unavailable, 'BOOTY_E_GITHUB_UNAVAILABLE')).toBe(true);
    expect(unavailable.retryable).toBe(true);

    sim.fault('pulls/create', { kind: 'secondary-rate-limit', retryAfter: 7 });
    const limited = await effects.openDraftPr(openInput(job), { headSha }).catch((e) => e);
    expect(isBootyError(limited, 'BOOTY_E_GITHUB_RATE_LIMITED')).toBe(true);
    expect(limited.retryAfterMs).toBe(7000);

    // The step's own retry (the job's) then finds nothing made and opens one PR.
    const pr = await effects.openDraftPr(openInput(job), { headSha });
    const statuses = (op: string) =>
      sim
        .requests()
        .filter((r) => r.operation === op)
        .map((r) => r.status);
    // A create that failed looks for the PR once more before it gives up.
    expect(statuses('pulls/list')).toEqual([502, 200, 200, 200]);
    expect(statuses('pulls/create')).toEqual([403, 201]);
    expect(sim.pulls('acme', 'widgets').map((p) => p.number)).toEqual([pr.number]);
  });

  it('maps a persistent 5xx or a refused connection to a retryable error naming the URL, and a 4xx to GitHub message', async () => {
    const { sim, effects, job, headSha } = await setup();
    sim.fault('pulls/list', { kind: 'bad-gateway' });
    const unavailable = await effects.openDraftPr(openInput(job), { headSha }).catch((e) => e);
    expect(isBootyError(unavailable, 'BOOTY_E_GITHUB_UNAVAILABLE')).toBe(true);
    expect(unavailable.retryable).toBe(true);
    expect(unavailable.message).toContain(`GET ${sim.url}/repos/acme/widgets/pulls?state=open&head=`);

    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const down = createGitHubEffects({
      clients: createGitHubClients({
        apiUrl: `http://127.0.0.1:${port}`,
        auth: { kind: 'token', token: 'x' },
      }),
    });
    const refusedConnection = await down.getIssue(job.repo, 1).catch((e) => e);
    expect(isBootyError(refusedConnection, 'BOOTY_E_GITHUB_UNAVAILABLE')).toBe(true);
    expect(refusedConnection.message).toContain(`GET http://127.0.0.1:${port}/repos/acme/widgets/issues/1: `);
    expect(refusedConnection.message).toContain('ECONNREFUSED');

    const unpushed = readyJob({ branch: 'booty/never-pushed' });
    const refused = await effects.openDraftPr(openInput(unpushed), { headSha }).catch((e) => e);
    expect(isBootyError(refused, 'BOOTY_E_GITHUB_REQUEST')).toBe(true);
    expect(refused.retryable).toBe(false);
    expect(refused.message).toContain('with 422: Validation Failed (PullRequest head invalid)');
  });

  it("fails the step, retryable, on GitHub's own GraphQL hiccup, which arrives as an error in a 200", async () => {
    const { sim, effects, job, headSha } = await setup();
    const pr = await effects.openDraftPr(openInput(job), { headSha });
    sim.fault('graphql', {
      kind: 'graphql-error',
      type: 'INTERNAL',
      message: 'Something went wrong while executing your query. Please try again.',
    });
    const input = effectInput({ ...job, pr: { ...pr, at: 3 } }, 'promotePr');
    const signal = new AbortController().signal;
    const hiccup = await effects.promotePr(input, { signal }).catch((e) => e);
    expect(isBootyError(hiccup, 'BOOTY_E_GITHUB_UNAVAILABLE')).toBe(true);
    expect(hiccup.retryable).toBe(true);
    expect(sim.pulls('acme', 'widgets')[0]!.draft).toBe(true);
    // The step's retry promotes.
    expect(await effects.promotePr(input, { signal })).toMatchObject({ draft: false, ci: noCi(headSha) });
    expect(sim.requests().filter((r) => r.operation === 'graphql')).toHaveLength(2);
  });

  it('fails promotion with a non-retryable error when GitHub refuses the mutation', async () => {
    const { sim, effects, job, headSha } = await setup();
    const pr = await effects.openDraftPr(openInput(job), { headSha });
    sim.fault('graphql', {
      kind: 'graphql-error',
      type: 'FORBIDDEN',
      message: 'Resource not accessible by integration',
    });
    const err = await effects
      .promotePr(effectInput({ ...job, pr: { ...pr, at: 3 } }, 'promotePr'), {
        signal: new AbortController().signal,
      })
      .catch((e) => e);
    expect(isBootyError(err, 'BOOTY_E_GITHUB_GRAPHQL')).toBe(true);
    expect(err.retryable).toBe(false);
    expect(err.message).toContain('FORBIDDEN: Resource not accessible by integration');
    expect(sim.pulls('acme', 'widgets')[0]!.draft).toBe(true);
  });
});
