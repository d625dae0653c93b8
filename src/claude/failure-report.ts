import type { TestRun } from '../events/effect-results.js';
import { qualityBlocks } from '../machines/attempt-progress.js';
import type { AttemptRecord } from '../machines/job-context.js';
import { CLASS_GUIDANCE } from '../refine/class-guidance.js';
import { failureBlocks } from '../refine/failure-class.js';
import { fenceTestOutput, sanitizeUntrusted } from './untrusted-text.js';

// What a refinement needs to know about the past: every earlier attempt in full (its explanation,
// its patch, what the path policy rejected, its failures against the baseline and their class).

const OUTPUT_CHARS = 6_000;
const NAMES = 15;
const EXPLANATION_CHARS = 1_500;
const DETAILS = 8;
const DETAIL_CHARS = 1_500;

const names = (list: string[]) =>
  list.length === 0
    ? 'none'
    : list.slice(0, NAMES).join('; ') + (list.length > NAMES ? `; and ${list.length - NAMES} more` : '');

/** A list that is every failing test is said so, not named a second time: each name costs tokens on every later attempt. */
const subset = (list: string[], failing: string[]) =>
  list.length > 0 && list.length === failing.length && list.every((t) => failing.includes(t))
    ? 'all of the failing tests'
    : names(list);

/** Whether the failure details below name every failing test, and nothing else: the list need not name them too. */
function detailedAll(run: TestRun): boolean {
  const shown = failureBlocks(run).map((b) => b.id);
  return (
    shown.length > 0 &&
    shown.length <= DETAILS &&
    shown.length === run.failingTests.length &&
    run.failingTests.every((t) => shown.includes(t))
  );
}

/** Reasons that only name tests the lists below name again: failing tests of the change, and baseline tests that fail now. */
const LISTED = new Set(['changed-test-failed', 'baseline-test-failed']);

/** The tests that failed before booty changed anything: said once, before the attempts, when the job's baseline has them. */
export const baselineLine = (failing: string[]) =>
  `Already failing before booty changed anything (baseline): ${names(failing)}`;

/** What a block leaves to the history around it: its class's guidance, and the baseline's failures. */
export interface SaidBefore {
  /**
   * The earlier attempt of this class whose block gives its guidance, or null. Named, not "above":
   * a long history may leave that attempt out, and says so.
   */
  guidedAt: number | null;
  /** The history's introduction names the baseline's failures. */
  baseline: boolean;
}

/**
 * One earlier attempt, whole: what the model said it would do, the patch it made, what the path
 * policy refused, and how the tests failed, with the class's guidance. It reads the same on every
 * later attempt (nothing in it says "latest", and what it leaves out depends only on the attempts
 * before it), so it stays in the cached prefix.
 */
export function attemptBlock(
  a: AttemptRecord,
  patch: string,
  baselineFailing: string[] | null,
  said: SaidBefore = { guidedAt: null, baseline: false },
): string {
  const why = sanitizeUntrusted(a.explanation, EXPLANATION_CHARS);
  // "Attempt n:" is how a reader (and the demo's scripted model) counts the attempts shown.
  const lines = [`<attempt n="${a.n}">`, `Attempt ${a.n}: ${why || '(nothing said)'}`];
  if (patch) lines.push(`<patch>\n${patch.replaceAll('</patch', '&lt;/patch')}</patch>`);
  if (a.rejected.length > 0) {
    lines.push('Changes the path policy rejected (they were not applied):');
    for (const r of a.rejected) lines.push(`- ${r.path}: ${r.reason} (${r.rule})`);
  }
  // Logs from before the classes have none: the request is then what it was.
  if (a.failureClass)
    lines.push(
      `Kind of failure: ${a.failureClass}.${said.guidedAt !== null ? ` (Its guidance is with attempt ${said.guidedAt}.)` : ` ${CLASS_GUIDANCE[a.failureClass]}`}`,
    );
  const run = a.test;
  if (!run) {
    lines.push(
      a.files.length === 0
        ? 'Nothing from this attempt could be applied, so no tests ran.'
        : 'The tests did not run for this attempt.',
    );
  } else {
    lines.push(
      `Tests: ${testsWord(run)}. Command: ${run.command}; exit code ${run.exitCode ?? 'none'}${run.signal ? `, signal ${run.signal}` : ''}${run.timedOut ? '; it timed out' : ''}.`,
      ...(run.reasons ?? [])
        .filter((r) => !LISTED.has(r.code))
        .map((r) => `Why it did not pass: ${r.message}`),
      `All failing tests: ${detailedAll(run) ? `the ${run.failingTests.length === 1 ? 'one' : run.failingTests.length} in the failure details below` : names(run.failingTests)}`,
      `New failures compared to the baseline (these must pass): ${subset(run.newFailures, run.failingTests)}`,
      `Tests this job added or modified that did not pass: ${subset(run.addedTestsFailing, run.failingTests)}`,
      ...(said.baseline ? [] : [baselineLine(baselineFailing ?? run.baselineFailures)]),
    );
    const quality = qualityFailure(run);
    const details = failureDetails(run);
    // The runner's own failure messages, when it gave them, say more than the output's last lines
    // and, unlike them, hold no timings: the same failure makes the same request. Tests that passed
    // have no failure to show: their quality commands' output is what tells.
    if (details) lines.push('Failure details:', details);
    else if (!quality) lines.push('End of the test output:', fenceTestOutput(run.outputTail, OUTPUT_CHARS));
    if (quality) lines.push(quality);
  }
  lines.push('</attempt>');
  return lines.join('\n');
}

/** How the tests ended: a run held back only by its quality commands passed its tests. */
function testsWord(run: TestRun): string {
  if (run.passed) return 'passed';
  if (qualityBlocks(run).length) return 'passed, but a quality command blocks the change (below)';
  return run.verdict === 'unknown' ? 'not proven' : 'failed';
}

/**
 * Each failing test's own message, root cause first: the first file that did not load, or the
 * first test the change broke, is what to fix; the rest follow, as they often share its cause.
 * Null when the runner gave no messages.
 */
function failureDetails(run: TestRun): string | null {
  const blocks = failureBlocks(run);
  if (blocks.length === 0) return null;
  const shown = blocks.slice(0, DETAILS).map((b) => `${b.id}:\n${fenceTestOutput(b.text, DETAIL_CHARS)}`);
  if (blocks.length > DETAILS) shown.push(`(and ${blocks.length - DETAILS} more failing)`);
  if (blocks.length === 1) return shown[0]!;
  return [
    'Start with the first root cause; fix it before the others:',
    shown[0],
    `The other ${blocks.length - 1} failures (they often share that cause; check each once it is fixed):`,
    ...shown.slice(1),
  ].join('\n');
}

/**
 * The quality commands (lint, typecheck) that held back a run whose tests passed: each one's
 * reason, the findings the base commit did not have, and the end of its output. Null when none did.
 */
export function qualityFailure(run: Pick<TestRun, 'quality'>): string | null {
  const blocking = qualityBlocks(run);
  if (blocking.length === 0) return null;
  const lines = [
    '<quality_failure>',
    'The tests passed, but these quality commands, run after the tests and on the base commit too, block the change:',
  ];
  for (const q of blocking) {
    lines.push(`Command: ${q.command}: ${q.reason}.`);
    if (q.newFindings.length)
      lines.push(
        'Findings the base commit did not have (fix each one):',
        fenceTestOutput(q.newFindings.slice(0, NAMES).join('\n'), DETAIL_CHARS),
      );
    lines.push('End of its output:', fenceTestOutput(q.outputTail, DETAIL_CHARS));
  }
  lines.push('</quality_failure>');
  return lines.join('\n');
}
