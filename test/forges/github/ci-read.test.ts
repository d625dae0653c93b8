import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ciGreen, ciRed } from '../../../sim/github/github-sim-ci-script.js';
import { LOG_NOT_READ, LOGS_READ } from '../../../src/forges/github/ci-read.js';
import { createGitHubClients } from '../../../src/forges/github/clients.js';
import { inputWith, openPrFixture, SECRET } from './pr-fixture.js';

const signal = new AbortController().signal;
const read = (f: Awaited<ReturnType<typeof openPrFixture>>) =>
  f.effects.readCi(inputWith(f.job, 'readCi'), { signal });

describe('reading CI on the PR head', () => {
  it('reads none when the commit has no checks and no statuses', async () => {
    const f = await openPrFixture();
    expect(await read(f)).toEqual({ sha: f.headSha, state: 'none', total: 0, failing: [], rerunnable: [] });
  });

  it('reads pending, not none, while nothing is on a commit built on one that ran CI: CI has not started', async () => {
    const f = await openPrFixture();
    const { data: pr } = await f.gh.rest.pulls.get({
      owner: 'acme',
      repo: 'widgets',
      pull_number: f.job.pr!.number,
    });
    const job = { ...f.job, workspace: { baseSha: pr.base.sha, defaultBranch: 'main' } };
    const readBuiltOn = () => f.effects.readCi(inputWith(job, 'readCi'), { signal });
    // The base ran no CI either: a repository without CI.
    expect(await readBuiltOn()).toMatchObject({ state: 'none', total: 0 });
    f.sim.scriptCi('acme', 'widgets', { sha: pr.base.sha, heads: [ciGreen()] });
    await f.sim.runCi('acme', 'widgets', { sha: pr.base.sha, branch: 'main' });
    await f.sim.settled();
    expect(await readBuiltOn()).toEqual({
      sha: f.headSha,
      state: 'pending',
      total: 0,
      failing: [],
      rerunnable: [],
    });
  });

  it('reads pending while the workflow runs', async () => {
    const f = await openPrFixture({ ci: { heads: [ciGreen()], completes: 'on-demand' } });
    // The Actions job `test` and the commit status beside it.
    expect(await read(f)).toEqual({
      sha: f.headSha,
      state: 'pending',
      total: 2,
      failing: [],
      rerunnable: [],
    });
  });

  it('reads passed when every check and status passed', async () => {
    const f = await openPrFixture({ ci: { heads: [ciGreen({ jobs: ['test', 'lint'] })] } });
    expect(await read(f)).toEqual({ sha: f.headSha, state: 'passed', total: 3, failing: [], rerunnable: [] });
  });

  it('reads a failed Actions job with its log cut to the failing step, scrubbed', async () => {
    const output = Array.from({ length: 80 }, (_, i) => `line ${i + 1}`);
    const f = await openPrFixture({
      ci: {
        heads: [
          ciRed({
            log: [
              '> widgets@1.0.0 test',
              ...output,
              `token=${SECRET}`,
              '\u001b[31m✖ add > adds two numbers\u001b[39m',
            ],
            passing: ['lint'],
          }),
        ],
        statusContext: null,
      },
    });
    const [run] = f.sim.workflowRuns('acme', 'widgets');
    const job = f.sim.jobs('acme', 'widgets').find((j) => j.name === 'test')!;

    const ci = await read(f);

    expect(ci).toEqual({
      sha: f.headSha,
      state: 'failed',
      total: 2,
      failing: [
        {
          name: 'test',
          kind: 'check',
          url: `${f.sim.url}/acme/widgets/actions/runs/${run!.id}/job/${job.id}`,
          detail: [
            'Run npm test',
            '…',
            ...output.slice(-57),
            'token=[redacted]',
            '✖ add > adds two numbers',
            'Error: Process completed with exit code 1.',
          ].join('\n'),
        },
      ],
      rerunnable: [run!.id],
    });
  });

  it('reads the logs of the first few failing jobs of a red matrix only; the rest say why not', async () => {
    const names = ['node-18', 'node-20', 'node-22', 'linux', 'windows'];
    const f = await openPrFixture({
      ci: {
        heads: [{ jobs: names.map((job) => ciRed({ job, log: [`${job} broke`] }).jobs[0]!) }],
        statusContext: null,
      },
    });
    const ci = await read(f);
    expect(ci.state).toBe('failed');
    const details = new Map(ci.failing.map((c) => [c.name, c.detail]));
    expect(new Set(details.keys())).toEqual(new Set(names));
    const read_ = names.filter(
      (n) => details.get(n) === `Run npm test\n${n} broke\nError: Process completed with exit code 1.`,
    );
    const unread = names.filter((n) => !read_.includes(n));
    expect(read_).toHaveLength(LOGS_READ);
    for (const n of unread) {
      expect(details.get(n)).toBe(LOG_NOT_READ);
    }
    const downloads = f.sim.requests().filter((r) => /\/actions\/jobs\/\d+\/logs$/.test(r.path));
    expect(downloads).toHaveLength(LOGS_READ);
  });

  it('reads a failed commit status by its description, and a failed check of another App by its output', async () => {
    const f = await openPrFixture();
    await f.gh.rest.repos.createCommitStatus({
      owner: 'acme',
      repo: 'widgets',
      sha: f.headSha,
      state: 'failure',
      context: 'coverage',
      description: 'Coverage fell to 71%',
      target_url: 'https://ci.example.test/builds/7',
    });
    const { publicKey, privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    });
    const { appId, installationId } = f.sim.installApp({ publicKey, account: 'acme', slug: 'linter' });
    const linter = createGitHubClients({
      apiUrl: f.sim.url,
      auth: { kind: 'app', appId: String(appId), privateKey },
      paced: false,
    });
    const lgh = await linter.forRepo(f.job.repo, installationId);
    await lgh.rest.checks.create({
      owner: 'acme',
      repo: 'widgets',
      name: 'eslint',
      head_sha: f.headSha,
      status: 'completed',
      conclusion: 'failure',
      details_url: 'https://lint.example.test/7',
      output: { title: '2 problems', summary: `no-unused-vars in add.js (${SECRET})` },
    });

    const ci = await read(f);

    expect(ci.state).toBe('failed');
    expect(ci.total).toBe(2);
    expect(ci.rerunnable).toEqual([]);
    expect(ci.failing).toEqual([
      {
        name: 'eslint',
        kind: 'check',
        url: expect.stringMatching(new RegExp(`^${f.sim.url}/acme/widgets/runs/\\d+$`)),
        detail: '2 problems\nno-unused-vars in add.js ([redacted])',
      },
      {
        name: 'coverage',
        kind: 'status',
        url: 'https://ci.example.test/builds/7',
        detail: 'Coverage fell to 71%',
      },
    ]);
  });
});

describe('re-running failed CI', () => {
  it('re-runs the failed jobs once; a run already re-running counts as done, and CI passes on the re-run', async () => {
    // A flaky check: red on the first attempt, green on the re-run.
    const f = await openPrFixture({
      ci: { heads: [[ciRed({ log: ['flaky'] }), ciGreen()]], completes: 'on-demand' },
    });
    await f.sim.completeCi('acme', 'widgets');
    const red = await read(f);
    expect(red.state).toBe('failed');
    const [run] = f.sim.workflowRuns('acme', 'widgets');
    expect(red.rerunnable).toEqual([run!.id]);

    const input = inputWith(f.job, 'rerunCi', red);
    expect(await f.effects.rerunCi(input, { signal })).toEqual({ sha: f.headSha, runs: [run!.id] });
    // Run again after a crash: GitHub refuses a re-run of a running run, which is this one.
    expect(await f.effects.rerunCi(input, { signal })).toEqual({ sha: f.headSha, runs: [run!.id] });
    expect(await read(f)).toMatchObject({ state: 'pending' });

    await f.sim.completeCi('acme', 'widgets');
    expect(f.sim.workflowRuns('acme', 'widgets').map((r) => [r.id, r.attempt])).toEqual([[run!.id, 2]]);
    expect(await read(f)).toEqual({ sha: f.headSha, state: 'passed', total: 2, failing: [], rerunnable: [] });
  });
});
