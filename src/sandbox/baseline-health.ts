import type { LoadError, TestCase } from '../events/effect-results.js';
import { followedBy, type TextTest } from '../text-scan.js';
import { describeExit } from './test-verdict.js';

// Whether a command ran at all, and whether a baseline shows a test command that cannot work.
// A broken baseline ends the job before any request to the model: no change can be judged
// against a suite that does not run, nor against one whose results booty cannot read. A suite
// that runs and says it found no tests is not broken.

interface Ended {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  output: string;
  cases: TestCase[];
  loadErrors: LoadError[];
}

/** The shell, npm, python, node or cargo saying that the command itself is missing. */
const NOT_FOUND: TextTest[] = [
  /(?:^|\n)\S*sh: (?:\d+: )?\S+: (?:command )?not found/,
  /command not found/,
  /No module named '?(?:pytest|unittest|nose2?|tox)'?/,
  /npm (?:ERR!|error) Missing script/,
  /npm (?:ERR!|error) could not determine executable to run/,
  /error: no such command: `?\w+/,
  /go: unknown (?:sub)?command/,
  // node's entry script itself is missing; a scan, as the regex would read 300 characters from each quote
  followedBy(/Cannot find module '[^']+'/, /requireStack: \[\]/, { within: 300 }),
  /can't open file '[^']+': \[Errno 2\] No such file or directory/,
];

/** Runners that exit non-zero when they find no tests, which is not a broken command. */
const NO_TESTS = [
  /no tests ran|collected 0 items/, // pytest, exit 5
  /No tests found, exiting with code 1/, // jest
  /No test files found/, // vitest and mocha
  /\bno test files\b/, // go
  /running 0 tests/, // cargo
  /^\s*(?:#|ℹ) tests 0$/m, // node --test, TAP's and the spec reporter's summary
  /^1\.\.0\b/m, // TAP's plan of no tests
  /^\s*Total:\s+0$/m, // uvu
];

export function commandRan(r: Pick<Ended, 'exitCode' | 'output' | 'cases'>): boolean {
  if (r.exitCode === 126 || r.exitCode === 127) return false;
  if (r.cases.length > 0 || r.exitCode === 0) return true;
  return !NOT_FOUND.some((re) => re.test(r.output));
}

export const foundNoTests = (output: string) => NO_TESTS.some((re) => re.test(output));

export interface BaselineProblem {
  reason: 'test-command-broken' | 'test-command-timeout' | 'tests-unreadable';
  message: string;
}

/**
 * Why this baseline cannot gate a change, or null when it can. `runner` says in words which runner
 * the command starts (runner-seen.ts), for a run that exited 0 with nothing booty could read;
 * booty.yml's `gate: exit-code` accepts such a run.
 */
export function baselineProblem(
  r: Ended & { ran: boolean },
  options: { gate?: 'tests' | 'exit-code'; runner?: string } = {},
): BaselineProblem | null {
  if (r.timedOut) {
    return { reason: 'test-command-timeout', message: 'the test command did not finish before the timeout' };
  }
  if (!r.ran) {
    return {
      reason: 'test-command-broken',
      message: `the test command could not run: it ${describeExit(r)}, and a program it needs was not found`,
    };
  }
  const failed = r.signal !== null || r.exitCode !== 0;
  if (failed && r.cases.length === 0 && !foundNoTests(r.output)) {
    return {
      reason: 'test-command-broken',
      message: r.loadErrors.length
        ? `the test run stopped before any test ran: ${r.loadErrors.map((e) => e.file).join(', ')} did not load`
        : `the test command ${describeExit(r)} before booty saw any test result`,
    };
  }
  const seen = r.cases.length > 0 || r.loadErrors.length > 0 || foundNoTests(r.output);
  if (!seen && options.gate !== 'exit-code') {
    return {
      reason: 'tests-unreadable',
      message: `the tests ran and exited 0, but booty read no test result from them: the command starts ${options.runner ?? 'a runner'}, whose output booty cannot read`,
    };
  }
  return null;
}
