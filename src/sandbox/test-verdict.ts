import path from 'node:path/posix';
import type { TestRun } from '../events/effect-results.js';

// Whether a run passes, given the baseline: no test fails that did not already fail on the base
// commit, and every test file the job added passes. Pure, so the rules read as a table.

export type RunFacts = Pick<TestRun, 'exitCode' | 'signal' | 'timedOut' | 'failingTests'>;

export interface Verdict {
  passed: boolean;
  newFailures: string[];
  baselineFailures: string[];
  addedTestsFailing: string[];
}

const sameFailure = (a: RunFacts, b: RunFacts) =>
  a.exitCode === b.exitCode && a.signal === b.signal && a.timedOut === b.timedOut;

const failed = (r: RunFacts) => r.timedOut || r.exitCode !== 0;

/** Whether a failing test id belongs to a test file (see test-output-parsers for the id shapes). */
export function belongsTo(id: string, file: string, goModule?: string | null): boolean {
  if (id === file || id.startsWith(`${file} > `) || id.startsWith(`${file}::`)) return true;
  if (file.endsWith('_test.go') && goModule) {
    const dir = path.dirname(file);
    const pkg = dir === '.' ? goModule : `${goModule}/${dir}`;
    return id === pkg || id.startsWith(`${pkg} > `) || id.startsWith(`${pkg} [`);
  }
  return false;
}

export function judge(input: {
  run: RunFacts;
  baseline: RunFacts | null;
  addedTests: string[];
  /** What a failure that names no test is called, e.g. "`npm test` exited with 1". */
  unnamedFailure: string;
  goModule?: string | null;
}): Verdict {
  const { run, baseline, addedTests } = input;
  const baselineFailures = baseline?.failingTests ?? [];
  const known = new Set(baselineFailures);
  let newFailures = run.failingTests.filter((t) => !known.has(t));
  let addedTestsFailing = addedTests.filter((f) =>
    run.failingTests.some((id) => belongsTo(id, f, input.goModule)),
  );
  if (failed(run) && run.failingTests.length === 0) {
    // The output names no test. It is a failure of this job unless the baseline failed the same way.
    const inherited =
      baseline !== null &&
      failed(baseline) &&
      baseline.failingTests.length === 0 &&
      sameFailure(run, baseline);
    if (!inherited) {
      newFailures = [input.unnamedFailure];
      addedTestsFailing = [...addedTests];
    }
  } else if (run.timedOut) {
    // Named failures and a timeout: the tests that never finished are unknown, so it cannot pass.
    newFailures = [...newFailures, input.unnamedFailure];
  }
  return {
    passed: newFailures.length === 0 && addedTestsFailing.length === 0,
    newFailures,
    baselineFailures,
    addedTestsFailing,
  };
}
