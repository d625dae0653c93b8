import { describe, expect, it } from 'vitest';
import { ciGreen, ciRed } from '../../../sim/github/github-sim-ci-script.js';
import { calls, inputWith, openPrFixture, type PrFixture } from './pr-fixture.js';

const signal = new AbortController().signal;
const promote = (f: PrFixture) => f.effects.promotePr(inputWith(f.job, 'promotePr'), { signal });
const draft = (f: PrFixture) => f.sim.pulls('acme', 'widgets')[0]!.draft;

describe('promotion waits for CI', () => {
  it('leaves the PR draft while CI runs', async () => {
    const f = await openPrFixture({ ci: { heads: [ciGreen()], completes: 'on-demand' } });
    const result = await promote(f);
    expect(result).toEqual({
      draft: true,
      ci: { at: expect.any(Number), sha: f.headSha, state: 'pending', total: 2, failing: [], rerunnable: [] },
    });
    expect(draft(f)).toBe(true);
    expect(calls(f, 'graphql')).toBe(0);
  });

  it('leaves the PR draft when CI is red', async () => {
    const f = await openPrFixture({ ci: { heads: [ciRed({ log: ['nope'] })] } });
    const result = await promote(f);
    expect(result.draft).toBe(true);
    expect(result.ci).toMatchObject({ sha: f.headSha, state: 'failed' });
    expect(result.ci!.failing.map((c) => [c.name, c.kind])).toEqual([
      ['test', 'check'],
      ['ci/simulated', 'status'],
    ]);
    expect(draft(f)).toBe(true);
    expect(calls(f, 'graphql')).toBe(0);
  });

  it('marks the PR ready when CI is green', async () => {
    const f = await openPrFixture({ ci: { heads: [ciGreen()] } });
    expect(await promote(f)).toEqual({
      draft: false,
      ci: { at: expect.any(Number), sha: f.headSha, state: 'passed', total: 2, failing: [], rerunnable: [] },
    });
    expect(draft(f)).toBe(false);
  });

  it('marks the PR ready when the repository has no CI', async () => {
    const f = await openPrFixture();
    expect(await promote(f)).toEqual({
      draft: false,
      ci: { at: expect.any(Number), sha: f.headSha, state: 'none', total: 0, failing: [], rerunnable: [] },
    });
    expect(draft(f)).toBe(false);
  });

  it('leaves the PR draft when someone pushed past the head booty tested', async () => {
    const f = await openPrFixture();
    await f.sim.pushCommit('acme', 'widgets', { branch: f.job.branch, files: { 'more.js': 'x\n' } });
    expect(await promote(f)).toMatchObject({ draft: true, ci: { sha: f.headSha, state: 'none' } });
    expect(draft(f)).toBe(true);
  });
});

describe('red CI on a ready PR', () => {
  it('turns the PR back to draft and says so once, even when run again', async () => {
    const f = await openPrFixture({ ci: { heads: [ciRed({ log: ['nope'] })] } });
    await f.sim.setDraft('acme', 'widgets', f.job.pr!.number, false);
    const ci = await f.effects.readCi(inputWith(f.job, 'readCi'), { signal });
    const input = inputWith({ ...f.job, pr: { ...f.job.pr!, draft: false } }, 'demotePr', ci);

    expect(await f.effects.demotePr(input, { signal })).toEqual({ draft: true });
    expect(await f.effects.demotePr(input, { signal })).toEqual({ draft: true });

    expect(draft(f)).toBe(true);
    expect(calls(f, 'graphql')).toBe(1);
    expect(f.sim.comments('acme', 'widgets', f.job.pr!.number).map((c) => c.body)).toEqual([
      `<!-- booty:demoted job=job-1 sha=${f.headSha} -->\n` +
        `CI failed on ${f.headSha.slice(0, 7)} (\`test\`, \`ci/simulated\`), so booty turned this pull request back to draft until it passes.`,
    ]);
  });

  it('refuses to demote a closed PR', async () => {
    const f = await openPrFixture();
    await f.sim.closePull('acme', 'widgets', f.job.pr!.number);
    const err = await f.effects.demotePr(inputWith(f.job, 'demotePr'), { signal }).catch((e) => e);
    expect(err.code).toBe('BOOTY_E_GITHUB_PRECONDITION');
    expect(f.sim.comments('acme', 'widgets')).toEqual([]);
  });
});
