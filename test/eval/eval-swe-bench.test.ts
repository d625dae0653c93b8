import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../../src/eval/eval-git.js';
import { tempDir } from '../support/job-harness.js';
import { runEvalCli } from './eval-cli.js';

// A SWE-bench-format file, read as SWE-bench writes it (instance_id, repo as owner/name,
// base_commit, problem_statement, test_patch, patch, FAIL_TO_PASS and PASS_TO_PASS as JSON text),
// with three hand-made Python instances, end to end with no network: the repository is a local
// clone under --repos, as SWE-bench's harness keeps them; booty detects the setup (pytest.ini) as it
// would on any repository, makes its virtualenv, runs the job, and the hidden tests judge it.

const FIXTURES = path.resolve('test/eval/fixtures/swe-bench');
const BASE = '0427aa01453d9c1b1e5fa1e757a442e9ce78c985';

/** The clone SWE-bench's repo/base_commit name: the fixture's files, committed as the instances say. */
async function cloneOfPycalc(): Promise<string> {
  const repos = tempDir('booty-swe-repos-');
  const dir = path.join(repos, 'handmade__pycalc');
  fs.cpSync(path.join(FIXTURES, 'pycalc'), dir, { recursive: true });
  await git(['init', '--quiet', '--initial-branch=main'], { cwd: dir });
  await git(['add', '--all'], { cwd: dir });
  await git(['commit', '--quiet', '-m', 'base'], {
    cwd: dir,
    env: {
      GIT_AUTHOR_NAME: 'x',
      GIT_AUTHOR_EMAIL: 'x@x',
      GIT_COMMITTER_NAME: 'x',
      GIT_COMMITTER_EMAIL: 'x@x',
    },
  });
  expect((await git(['rev-parse', 'HEAD'], { cwd: dir })).trim()).toBe(BASE);
  return repos;
}

describe('booty eval on a SWE-bench-format file', () => {
  it('runs three hand-made Python instances end to end with the oracle: each resolved and promoted', async () => {
    const repos = await cloneOfPycalc();
    const run = await runEvalCli([
      path.join(FIXTURES, 'instances.jsonl'),
      '--oracle',
      '--repos',
      repos,
      '--concurrency',
      '3',
      '--dir',
      tempDir('booty-swe-eval-'),
    ]);
    expect(run.err).not.toMatch(/BOOTY_E_/);
    expect(run.code).toBe(0);
    expect(
      run.report!.results.map((r) => [
        r.id,
        r.resolved,
        r.promoted,
        r.hidden.command,
        Object.values(r.hidden.failToPass),
      ]),
    ).toEqual([
      ['handmade__pycalc-1', true, true, 'python -m pytest', ['passed']],
      ['handmade__pycalc-2', true, true, 'python -m pytest', ['passed']],
      ['handmade__pycalc-3', true, true, 'python -m pytest', ['passed']],
    ]);
    expect(run.report!.totals).toMatchObject({ resolved: 3, falsePromotions: 0, missedPromotions: 0 });
  }, 300_000);
});
