import type { FailureClass, Rejection, TestCase, TestRun } from '../events/effect-results.js';
import { anyOf, followedBy, type TextTest } from '../text-scan.js';

// Why an attempt failed, in one of a few classes: what the refine prompt tells the model to look
// at, and whether another attempt can help at all (policy and environment cannot). The structured
// record speaks first; the text is read against a small table of each language's own words. An
// environment stop needs the same failure on the baseline, which ran in the same workspace state:
// the same words, in the same test (one the change did not touch) or in the run's own output (when
// a failing test is one the change did not touch). A test the change added or modified fails by the
// change's doing, as does what the baseline did not show, and another attempt may fix it.

type Run = Pick<
  TestRun,
  | 'ran'
  | 'exitCode'
  | 'signal'
  | 'reasons'
  | 'failingTests'
  | 'timedOut'
  | 'outputTail'
  | 'cases'
  | 'loadErrors'
  | 'newFailures'
  | 'addedTestsFailing'
  | 'changedTests'
>;

// The patterns that pair two phrases are scans: as regexes (`Expected:[\s\S]*Received:`) they
// would rescan the rest of the text from each place the first phrase occurs.
const EXPECTED_TO = followedBy(/\bexpected /, / to (?:be|equal|deeply|have|throw|include)/, {
  gap: 1,
  sameLine: true,
});
const EXPECTED_RECEIVED = followedBy(/Expected:/, /Received:/);
const PANICKED_ASSERTION = followedBy(/panicked at/, /assertion/, { within: 400 });

/** The words of each language and tool for each class. The first pattern that matches wins. */
const PATTERNS: [FailureClass, TextTest][] = [
  // The sandbox said no: a write outside the workspace, or bubblewrap itself.
  ['policy', /\bbwrap: |\bEROFS\b|Read-only file system/],
  // A program or the network the tests need is not there. A refused connection to this machine is
  // left out: that is usually the change's own server not listening.
  ['environment', /command not found|(?:^|\n)\S*sh: (?:\d+: )?\S+: not found/],
  [
    'environment',
    /\b(?:ENOTFOUND|EAI_AGAIN|ENETUNREACH)\b|ECONNREFUSED(?! (?:127\.0\.0\.1|0\.0\.0\.0|::1|localhost))|Temporary failure in name resolution|Name or service not known|Network is unreachable|dial tcp: lookup/,
  ],
  // JS/TS
  ['import', /does not provide an export named|is not exported by|has no exported member/],
  ['missing-module', /Cannot find module|ERR_MODULE_NOT_FOUND|Cannot find package '/],
  ['syntax-or-compile', /\bSyntaxError\b|error TS\d+:/],
  ['assertion', anyOf(/AssertionError|ERR_ASSERTION/, EXPECTED_TO, EXPECTED_RECEIVED)],
  ['type-or-value', /\b(?:TypeError|ReferenceError|RangeError)\b/],
  // Python
  ['missing-module', /ModuleNotFoundError|No module named/],
  ['import', /ImportError/],
  ['syntax-or-compile', /IndentationError|TabError/],
  ['assertion', /(?:^|\n)E\s+assert /],
  ['type-or-value', /\b(?:ValueError|AttributeError|NameError|KeyError|IndexError)\b/],
  // Go
  [
    'missing-module',
    /cannot find package|no required module provides package|cannot find module providing package/,
  ],
  ['syntax-or-compile', /\bundefined: |syntax error:|\[build failed\]|\[setup failed\]/],
  // After the last line break before it: a run of blank lines is not read again from each one.
  ['assertion', /(?:^|\n)[^\S\n]*--- FAIL/],
  // Rust
  [
    'missing-module',
    anyOf(/error\[E0463\]/, followedBy(/unresolved import `[\w-]+`\n/, /use of undeclared crate/)),
  ],
  ['import', /error\[E0432\]|error\[E0433\]/],
  ['syntax-or-compile', /error\[E0\d+\]|could not compile/],
  ['assertion', PANICKED_ASSERTION],
];

/**
 * An assertion's own message. The words it quotes are the values it compared (a test of error
 * handling expects 'ENOTFOUND'; one of a CLI, 'command not found'), not what happened to the run.
 */
const ASSERTION_MESSAGE = anyOf(
  /AssertionError|ERR_ASSERTION|(?:^|\n)E\s+assert /,
  EXPECTED_TO,
  EXPECTED_RECEIVED,
  PANICKED_ASSERTION,
);

/**
 * The class a piece of output names, or null when the table knows none of its words. A class that
 * ends the job (policy, environment) needs words that are not inside an assertion's message: a
 * wrong stop loses a job another attempt could fix, a wrong refine costs one attempt.
 */
export function classifyText(text: string, environment = true): FailureClass | null {
  const asserted = ASSERTION_MESSAGE.test(text);
  for (const [cls, re] of PATTERNS) {
    if (cls === 'environment' && !environment) continue;
    if (!(asserted && failsFast(cls)) && re.test(text)) return cls;
  }
  return null;
}

const isFailure = (c: TestCase) => c.status === 'failed' || c.status === 'errored';

/**
 * Each failure the runner reported, root causes first: files that did not load (none of their
 * tests ran), then the tests this change broke or added, then the rest.
 */
export function failureBlocks(run: Pick<Run, 'cases' | 'loadErrors' | 'newFailures' | 'addedTestsFailing'>) {
  const first = new Set([...run.newFailures, ...run.addedTestsFailing]);
  const cases = (run.cases ?? []).filter((c) => isFailure(c) && c.message);
  const ordered = [...cases.filter((c) => first.has(c.id)), ...cases.filter((c) => !first.has(c.id))];
  return [
    ...(run.loadErrors ?? []).map((e) => ({ id: `${e.file} (did not load)`, text: e.message })),
    ...ordered.map((c) => ({ id: c.id, text: c.message ?? '' })),
  ];
}

/**
 * A run that exited 0 and named no failing test, held back only by what booty could not see (no
 * test it could read, or not the change's own): no failure of the change, and nothing another
 * attempt can fix, so it is never refined.
 */
export function unreadable(
  run: Pick<TestRun, 'ran' | 'exitCode' | 'signal' | 'timedOut' | 'reasons' | 'failingTests' | 'loadErrors'>,
): boolean {
  return (
    run.ran &&
    run.exitCode === 0 &&
    !run.signal &&
    !run.timedOut &&
    run.reasons.length > 0 &&
    run.reasons.every((r) => r.level === 'unknown') &&
    run.failingTests.length === 0 &&
    run.loadErrors.length === 0
  );
}

/** What the base commit's run showed, and what the change wrote: the evidence for an environment stop. */
export interface BaselineEvidence {
  baseline: Pick<Run, 'ran' | 'exitCode' | 'outputTail' | 'cases' | 'loadErrors'> | null;
  /** The paths the change wrote: a file of them that did not load is the change's. */
  changedPaths: readonly string[];
}

/** The first line of a text that names the environment as the cause. */
const environmentLine = (text: string) =>
  text
    .split('\n')
    .find((line) => classifyText(line) === 'environment')
    ?.trim() ?? null;

/** Why a run after a change did not pass: the structured record first, then its text. */
export function classifyRun(run: Run, evidence: BaselineEvidence): FailureClass {
  if (unreadable(run)) return 'unreadable';
  if (run.timedOut) return 'timeout';
  const { baseline } = evidence;
  const before = new Map(
    baseline
      ? failureBlocks({ ...baseline, newFailures: [], addedTestsFailing: [] }).map((b) => [b.id, b.text])
      : [],
  );
  const touched = new Set([
    ...run.changedTests,
    ...run.addedTestsFailing,
    ...evidence.changedPaths.map((p) => `${p} (did not load)`),
  ]);
  /** The class of a text, environment only when the baseline's counterpart has the same words. */
  const classOf = (text: string, counterpart: string | undefined) => {
    const cls = classifyText(text);
    if (cls !== 'environment') return cls;
    const line = environmentLine(text);
    const shared =
      counterpart !== undefined &&
      (line === null ? classifyText(counterpart) === 'environment' : counterpart.includes(line));
    return shared ? cls : classifyText(text, false);
  };
  for (const block of failureBlocks(run)) {
    const cls = classOf(block.text, touched.has(block.id) ? undefined : before.get(block.id));
    if (cls) return cls;
  }
  // When every failing test (and file that did not load) is one the change added or modified, the
  // output's words are theirs: the change's failure, even where the baseline's old one printed the same.
  const failing = [...run.failingTests, ...(run.loadErrors ?? []).map((e) => `${e.file} (did not load)`)];
  const own = failing.length > 0 && failing.every((id) => touched.has(id));
  const fromOutput = classOf(run.outputTail, own ? undefined : baseline?.outputTail);
  if (fromOutput) return fromOutput;
  // The shell's own word for a program it could not find or start, as on the baseline.
  const unstarted = (r: Pick<Run, 'ran' | 'exitCode'>) =>
    !r.ran && (r.exitCode === 127 || r.exitCode === 126);
  if (unstarted(run) && baseline && unstarted(baseline) && baseline.exitCode === run.exitCode)
    return 'environment';
  return 'unknown';
}

/**
 * An attempt that applied nothing: the path policy refused a protected path each time (a human's
 * call), or the answer held nothing booty could write (the model's).
 */
export function classifyApplied(
  applied: readonly unknown[],
  rejected: Rejection[],
): FailureClass | undefined {
  if (applied.length > 0) return undefined;
  return rejected.length > 0 && rejected.every((r) => r.rule === 'path-protected')
    ? 'policy'
    : 'invalid-model-output';
}

/**
 * The quality commands that held a run back, when booty could judge none of them: what the
 * fail-fast message names (whether no attempt can change that is unjudgeableOnBase's call, in
 * src/sandbox/quality-compare.ts). Empty when any command failed anew, or none blocked.
 */
export function unjudgedQuality(run: Pick<TestRun, 'quality'> | null | undefined) {
  const blocking = (run?.quality ?? []).filter((q) => q.verdict !== 'pass');
  return blocking.length > 0 && blocking.every((q) => q.verdict === 'unknown') ? blocking : [];
}

/** No attempt can get past these: the job stops and says what a human must change. */
export const failsFast = (cls: FailureClass | undefined) =>
  cls === 'policy' || cls === 'environment' || cls === 'unreadable';
