import type { LoadError, TestCase, TestRun, VerdictReason } from '../events/effect-results.js';
import { matchesTouched, type TouchedTest, touchedLabel } from './changed-tests.js';

// Whether a change passes, on positive evidence only. A change passes when all of these hold:
//   - the command ran (not 126 or 127, not "not found") and did not time out;
//   - at least one test was seen passing after the change;
//   - every test the change added or modified was seen, by id, and passed;
//   - no test that passed on the baseline fails or disappears;
//   - the exit status agrees with the named results.
// Where a runner reports files, not tests (uvu), an entry stands for a whole file: a file the
// change added or modified is seen when all of its tests passed, and a file shows no fewer tests
// passing than on the baseline. With booty.yml's `gate: exit-code`, a run that exited 0 passes on
// its exit status where booty could not see enough; evidence of a break still blocks it.
// A reason of level `fail` is evidence that the change broke something; `unknown` is what booty
// could not see. Either way nothing is promoted. Pure, so the rule reads as a table and a property.

/** What a run showed, before any comparison. */
export type RunFacts = Pick<TestRun, 'ran' | 'exitCode' | 'signal' | 'timedOut' | 'cases' | 'loadErrors'>;

export interface Judgement {
  verdict: TestRun['verdict'];
  /** `exit-code`: the pass rests on the exit status alone (booty.yml `gate: exit-code`). */
  evidence?: 'exit-code';
  reasons: VerdictReason[];
  failingTests: string[];
  newFailures: string[];
  baselineFailures: string[];
  changedTests: string[];
  addedTestsFailing: string[];
}

const NAMES = 10;

const isFailure = (c: TestCase) =>
  c.status === 'failed' || c.status === 'errored' || (c.counts?.failed ?? 0) > 0;
/** Tests the entry shows passing: one for a passing case, the count for a file. */
const passing = (c: TestCase) => (c.counts ? c.counts.passed : c.status === 'passed' ? 1 : 0);
/** Every test the entry stands for was seen passing (a file's: none failed or skipped, and some ran). */
const allPassed = (c: TestCase) =>
  c.status === 'passed' &&
  (!c.counts || (c.counts.passed > 0 && c.counts.failed === 0 && c.counts.skipped === 0));

export const failingIds = (r: Pick<RunFacts, 'cases' | 'loadErrors'>) =>
  [
    ...r.cases.filter(isFailure).map((c) => c.id),
    ...r.loadErrors.map((e) => `${e.file} (did not load)`),
  ].sort();

const list = (ids: string[]) =>
  ids.slice(0, NAMES).join(', ') + (ids.length > NAMES ? ` and ${ids.length - NAMES} more` : '');

const reason = (
  code: VerdictReason['code'],
  level: VerdictReason['level'],
  message: string,
  tests: string[] = [],
): VerdictReason => ({ code, level, message, tests: [...tests].sort() });

/** How the command ended, in words: "exited 1", "timed out", "was killed by SIGKILL". */
export function describeExit(r: Pick<RunFacts, 'exitCode' | 'signal' | 'timedOut'>): string {
  if (r.timedOut) return 'timed out';
  if (r.signal) return `was killed by ${r.signal}`;
  return `exited ${r.exitCode ?? 'without a status'}`;
}

export function judge(input: {
  baseline: Pick<RunFacts, 'cases' | 'loadErrors'> | null;
  run: RunFacts;
  /** Test declarations the change added or modified (see changed-tests.ts). */
  touched: TouchedTest[];
  /** booty.yml's `gate`: `exit-code` accepts the exit status where booty could not see enough. */
  gate?: 'tests' | 'exit-code';
}): Judgement {
  const { run, touched } = input;
  const baseline = input.baseline ?? { cases: [], loadErrors: [] };
  const before = new Map(baseline.cases.map((c) => [c.id, c]));
  const after = new Map(run.cases.map((c) => [c.id, c]));
  const reasons: VerdictReason[] = [];

  if (!run.ran)
    reasons.push(reason('not-run', 'unknown', `the test command did not run: it ${describeExit(run)}`));
  if (run.timedOut) reasons.push(reason('timed-out', 'fail', 'the tests did not finish before the timeout'));

  if (!run.cases.some((c) => passing(c) > 0)) {
    reasons.push(reason('no-test-passed', 'unknown', 'no test was seen passing after the change'));
  }

  // Tests of the change: every id the baseline did not have, and every case whose declaration the
  // change edited (for a runner that reports files, the file it is in). A declaration no run
  // showed is named by its file and path.
  const changed = run.cases.filter((c) => !before.has(c.id) || touched.some((t) => matchesTouched(c, t)));
  const unseen = touched
    .filter((t) => !run.cases.some((c) => matchesTouched(c, t)))
    .filter((t) => !run.loadErrors.some((e) => e.file === t.file))
    .map(touchedLabel);
  const brokenFiles = run.loadErrors.filter((e) => touched.some((t) => t.file === e.file));
  const changedFailing = [
    ...changed.filter(isFailure).map((c) => c.id),
    ...brokenFiles.map((e: LoadError) => `${e.file} (did not load)`),
  ];
  const changedSkipped = changed.filter((c) => !isFailure(c) && !allPassed(c)).map((c) => c.id);
  if (changedFailing.length) {
    reasons.push(
      reason(
        'changed-test-failed',
        'fail',
        `tests the change added or modified fail: ${list(changedFailing)}`,
        changedFailing,
      ),
    );
  }
  if (unseen.length || changedSkipped.length) {
    const missing = [...unseen, ...changedSkipped];
    reasons.push(
      reason(
        'changed-test-unseen',
        'unknown',
        `tests the change added or modified were never seen passing (not run, or skipped): ${list(missing)}`,
        missing,
      ),
    );
  }

  // The baseline's passing tests must still pass; a file, as many of its tests as before.
  const regressed: string[] = [];
  const missing: string[] = [];
  for (const c of baseline.cases) {
    const now = after.get(c.id);
    if (c.counts) {
      if (c.counts.passed === 0 || (now && passing(now) >= c.counts.passed)) continue;
      if (now && (now.counts?.failed ?? 0) > c.counts.failed) regressed.push(c.id);
      else missing.push(c.id);
      continue;
    }
    if (c.status !== 'passed') continue;
    if (!now || now.status === 'skipped') missing.push(c.id);
    else if (isFailure(now)) regressed.push(c.id);
  }
  if (regressed.length) {
    reasons.push(
      reason(
        'baseline-test-failed',
        'fail',
        `tests that passed before the change fail now: ${list(regressed)}`,
        regressed,
      ),
    );
  }
  if (missing.length) {
    reasons.push(
      reason(
        'baseline-test-missing',
        'fail',
        `tests that passed before the change were not seen passing after it: ${list(missing)}`,
        missing,
      ),
    );
  }

  // The exit status must agree with what the report names.
  const failures = run.cases.filter(isFailure).length + run.loadErrors.length;
  const exitedZero = run.exitCode === 0 && !run.signal && !run.timedOut;
  if (run.ran && !run.timedOut) {
    if (exitedZero && failures > 0) {
      reasons.push(
        reason(
          'exit-disagrees',
          'unknown',
          `the command exited 0 but its results name ${failures} failing test(s)`,
        ),
      );
    } else if (!exitedZero && failures === 0) {
      reasons.push(
        reason('exit-disagrees', 'unknown', `the command ${describeExit(run)} and named no failing test`),
      );
    }
  }

  const broke = reasons.some((r) => r.level === 'fail');
  // Asked for in booty.yml: a run that exited 0 with no evidence of a break passes on its exit.
  const byExit = input.gate === 'exit-code' && !broke && reasons.length > 0 && run.ran && exitedZero;
  const verdict = broke ? 'fail' : reasons.length > 0 && !byExit ? 'unknown' : 'pass';
  return {
    verdict,
    ...(byExit && { evidence: 'exit-code' as const }),
    reasons,
    failingTests: failingIds(run),
    newFailures: [...new Set([...regressed, ...missing, ...changedFailing])].sort(),
    baselineFailures: failingIds(baseline),
    changedTests: [...new Set([...changed.map((c) => c.id), ...unseen])].sort(),
    addedTestsFailing: [...new Set([...changedFailing, ...changedSkipped, ...unseen])].sort(),
  };
}
