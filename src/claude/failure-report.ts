import type { TestRun } from '../events/effect-results.js';
import type { AttemptRecord, JobContext } from '../machines/job-context.js';
import { CLASS_GUIDANCE } from '../refine/class-guidance.js';
import { failureBlocks } from '../refine/failure-class.js';
import { fenceTestOutput, sanitizeUntrusted } from './untrusted-text.js';

// What a refinement needs to know about the past: the latest failure in detail (trimmed output,
// failing tests against the baseline, path-policy rejections) and every earlier attempt in brief.

const OUTPUT_CHARS = 6_000;
const NAMES = 15;
const EXPLANATION_CHARS = 500;
const DETAILS = 8;
const DETAIL_CHARS = 1_500;

const names = (list: string[]) =>
  list.length === 0
    ? 'none'
    : list.slice(0, NAMES).join('; ') + (list.length > NAMES ? `; and ${list.length - NAMES} more` : '');

/** The latest attempt's failure, or null before any attempt. */
export function latestFailure(job: JobContext): string | null {
  const latest = job.attempts.at(-1);
  if (!latest) return null;
  const lines = [`<latest_failure attempt="${latest.n}">`];
  // Logs from before the classes have none: the request is then what it was.
  if (latest.failureClass)
    lines.push(`Kind of failure: ${latest.failureClass}. ${CLASS_GUIDANCE[latest.failureClass]}`);
  if (latest.rejected.length > 0) {
    lines.push('Changes the path policy rejected (they were not applied):');
    for (const r of latest.rejected) lines.push(`- ${r.path}: ${r.reason} (${r.rule})`);
  }
  const run = latest.test ? job.lastTest : null;
  if (!run) {
    lines.push(
      latest.files.length === 0
        ? 'Nothing from this attempt could be applied, so no tests ran.'
        : 'The tests did not run for this attempt.',
    );
  } else {
    lines.push(
      `Command: ${run.command}; exit code ${run.exitCode ?? 'none'}${run.signal ? `, signal ${run.signal}` : ''}${run.timedOut ? '; it timed out' : ''}.`,
      ...(run.reasons ?? []).map((r) => `Why it did not pass: ${r.message}`),
      `New failures compared to the baseline (these must pass): ${names(run.newFailures)}`,
      `Tests this job added or modified that did not pass: ${names(run.addedTestsFailing)}`,
      `All failing tests: ${names(run.failingTests)}`,
      `Already failing before booty changed anything (baseline): ${names(job.baseline?.failingTests ?? run.baselineFailures)}`,
    );
    const details = failureDetails(run);
    // The runner's own failure messages, when it gave them, say more than the output's last lines
    // and, unlike them, hold no timings: the same failure makes the same request.
    if (details) lines.push('Failure details, as the test runner reported them:', details);
    else lines.push('End of the test output:', fenceTestOutput(run.outputTail, OUTPUT_CHARS));
  }
  lines.push('</latest_failure>');
  return lines.join('\n');
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

/** One short entry per attempt, oldest first: what changed, why, what failed. */
export function attemptHistory(attempts: AttemptRecord[]): string {
  if (attempts.length === 0) return '<attempt_history>none yet</attempt_history>';
  const lines = [`<attempt_history count="${attempts.length}">`];
  for (const a of attempts) lines.push(attemptLine(a));
  lines.push('</attempt_history>');
  return lines.join('\n');
}

function attemptLine(a: AttemptRecord): string {
  const why = sanitizeUntrusted(a.explanation, EXPLANATION_CHARS).replace(/\n+/g, ' ');
  const parts = [
    `Attempt ${a.n}: ${why || '(no explanation)'}`,
    `  changed: ${a.files.length ? names(a.files) : 'nothing applied'}`,
  ];
  if (a.rejected.length) parts.push(`  rejected: ${names(a.rejected.map((r) => `${r.path} (${r.reason})`))}`);
  if (!a.test) parts.push('  tests: not run');
  else if (a.test.passed) parts.push('  tests: passed');
  else
    parts.push(
      `  tests: ${a.test.verdict === 'unknown' ? 'not proven' : 'failed'}${a.test.timedOut ? ' (timed out)' : ''}, exit ${a.test.exitCode ?? 'none'}; new failures: ${names(a.test.newFailures)}; added or modified tests not passing: ${names(a.test.addedTestsFailing)}`,
    );
  return parts.join('\n');
}
