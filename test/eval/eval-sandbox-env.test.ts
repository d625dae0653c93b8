import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/job-harness.js';
import { runEvalCli } from './eval-cli.js';

// `booty eval` runs its jobs and its judge in the operator's sandbox, BOOTY_SANDBOX_ENV included:
// a variable that names a pytest plugin nobody has reaches both, and neither then sees a test pass.

const TASKS = path.resolve('test/eval/fixtures/pycalc-tasks.jsonl');

describe('booty eval and BOOTY_SANDBOX_ENV', () => {
  it("passes the operator's variables to the job's test runs and to the judge's", async () => {
    const run = await runEvalCli(
      [TASKS, '--oracle', '--only', 'pycalc-hours', '--dir', tempDir('booty-eval-sandbox-env-')],
      { BOOTY_SANDBOX_ENV: 'PYTEST_PLUGINS', PYTEST_PLUGINS: 'booty_has_no_such_plugin' },
    );
    expect(run.err).not.toMatch(/BOOTY_E_/);
    const [result] = run.report!.results;
    // The job's runs saw no test pass, so the oracle's right change was not promoted ...
    expect(result).toMatchObject({ id: 'pycalc-hours', resolved: false, promoted: false });
    // ... and the judge's run reported none of the hidden tests.
    const statuses = [
      ...Object.values(result!.hidden.failToPass),
      ...Object.values(result!.hidden.passToPass),
    ];
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set(['missing']));
  }, 240_000);
});
