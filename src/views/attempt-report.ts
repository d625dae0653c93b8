import type { TestRun } from '../events/effect-results.js';
import { qualityBlocks } from '../machines/attempt-progress.js';
import type { AttemptRecord, Round } from '../machines/job-context.js';
import { plural } from '../text.js';
import { code, fenced, formatDuration, tail } from './markdown-format.js';
import { attemptName } from './round-record.js';
import { counts, qualityFound, qualityWords, verdictReasons } from './test-evidence.js';
import { type Failures, failuresOf, isTap, ownStack } from './test-failures.js';

// Each attempt told for a maintainer: one line of what it changed and how its tests ended, and for
// a run that did not pass, what failed, in a collapsed block: the failing tests by id with their
// messages and own stack frames, the files that failed apart from tests, and why booty could not
// call it a pass. Shared by the progress comment and the PR body.

const MESSAGES = 8;
const NAMES = 20;
const FILES_NAMED = 5;

/** A test's id, said once: TAP nests a file's tests under a subtest named after the file. */
const testId = (id: string) =>
  code(
    id
      .split(' > ')
      .filter((p, i, all) => i === 0 || p !== all[i - 1])
      .join(' > '),
  );

/** How many tests a run failed, files apart. */
export function failingCount(run: TestRun): number {
  return failuresOf(run).tests.length;
}

/** "1 failing test", "2 failing tests and 1 file that did not load", for a summary line. */
function failureSummary(run: TestRun): string {
  const blocking = qualityBlocks(run);
  if (blocking.length) return qualityWords(blocking);
  const f = failuresOf(run);
  const parts: string[] = [];
  if (f.tests.length) parts.push(plural(f.tests.length, 'failing test'));
  const unloaded = f.files.filter((x) => x.didNotLoad).length;
  if (unloaded) parts.push(`${plural(unloaded, 'file')} that did not load`);
  if (f.files.length > unloaded) parts.push(`${plural(f.files.length - unloaded, 'failing file')}`);
  if (parts.length) return parts.join(' and ');
  return run.verdict === 'unknown' ? 'why the run was not proven' : 'what the run showed';
}

function listFailures(f: Failures): string[] {
  const out: string[] = [];
  let withMessage = 0;
  for (const t of f.tests.slice(0, NAMES)) {
    if (!t.failed) {
      out.push(`${testId(t.id)}: not seen passing (it did not run, or was skipped)`);
      continue;
    }
    const message = t.message ? ownStack(t.message) : '';
    if (message && withMessage++ < MESSAGES) out.push(`${testId(t.id)}\n\n${fenced(message)}`);
    else out.push(testId(t.id));
  }
  if (f.tests.length > NAMES) out.push(`… and ${f.tests.length - NAMES} more failing tests`);
  for (const file of f.files) {
    const what = file.didNotLoad ? 'did not load, so none of its tests ran' : 'failed outside its tests';
    const message = file.message ? ownStack(file.message) : '';
    out.push(`File ${code(file.file)} ${what}${message ? `:\n\n${fenced(message)}` : '.'}`);
  }
  if (f.alreadyFailing) {
    out.push(`${plural(f.alreadyFailing, 'more failing test')} already failed before the change.`);
  }
  return out;
}

/** What a run that did not pass showed: the failures, why it is not a pass, and its output when nothing else tells. */
export function runFailure(run: TestRun, options: { reasons?: boolean } = {}): string {
  // The tests passed: what holds the run back is its quality commands' findings.
  const blocking = qualityBlocks(run);
  if (blocking.length) return blocking.map(qualityFound).join('\n\n');
  const f = failuresOf(run);
  const parts = listFailures(f);
  if (options.reasons !== false) {
    const why = verdictReasons(run, { listed: true });
    if (why) parts.push(why);
  }
  const told = [...f.tests, ...f.files].some((x) => x.message);
  // The output is the evidence only when no test said anything; raw TAP repeats what is above.
  if (!told && run.outputTail.trim() && !isTap(run.outputTail)) {
    parts.push(`The end of the output:\n\n${fenced(ownStack(tail(run.outputTail, 40, 3000), 40, 3000))}`);
  }
  return parts.join('\n\n') || 'The run named no failing test.';
}

/** A collapsible block with what failed in a run: collapsed unless `open`. */
export function failureDetails(
  run: TestRun,
  title: string,
  options: { reasons?: boolean; open?: boolean } = {},
): string {
  const tag = options.open ? '<details open>' : '<details>';
  return `${tag}<summary>${title}: ${failureSummary(run)}</summary>\n\n${runFailure(run, options)}\n\n</details>`;
}

/** How an attempt's tests ended, in a few words. */
export function attemptResult(run: TestRun): string {
  const took = `in ${formatDuration(run.durationMs)}`;
  if (run.passed && run.evidence === 'exit-code')
    return `✅ passed on the exit status alone, weak evidence (${counts(run)}) ${took}`;
  if (run.passed) return `✅ passed (${counts(run)}) ${took}`;
  const blocking = qualityBlocks(run);
  if (blocking.length) {
    const mark = blocking.some((q) => q.verdict === 'fail') ? '❌' : '❔';
    return `${mark} held back by quality: ${qualityWords(blocking)}; the tests passed (${counts(run)}) ${took}`;
  }
  if (run.verdict === 'unknown') {
    return `❔ not proven: ${run.reasons[0]?.message ?? 'no result booty could read'} (${counts(run)})`;
  }
  const n = failingCount(run);
  const failed = n ? `${plural(n, 'test')} failed` : 'failed';
  return `❌ ${failed}${run.timedOut ? ', timed out' : ''} (${counts(run)}) ${took}`;
}

function changed(a: AttemptRecord): string {
  if (a.files.length === 0) return '';
  const named = a.files.slice(0, FILES_NAMED).map(code).join(', ');
  return ` · changed ${named}${a.files.length > FILES_NAMED ? ` and ${a.files.length - FILES_NAMED} more` : ''}`;
}

/** An attempt whose answer would have left the code as an earlier one did: nothing ran. */
export const repeatedWords = (n: number) => `the model repeated attempt ${n}: not tested again`;

/** One entry per attempt, oldest first; `running` marks an unfinished last attempt as under way. */
export function attemptsSection(
  attempts: AttemptRecord[],
  maxAttempts: number,
  running: boolean,
  rounds: readonly Round[] = [],
): string {
  const entries = attempts.map((a, i) => {
    const name = attemptName(a.n, rounds, maxAttempts);
    const head = `**${name}:**`;
    const refused = a.rejected.length
      ? `booty refused ${plural(a.rejected.length, 'change')} (${a.rejected.map((r) => `${code(r.path)}: ${r.reason}`).join('; ')})`
      : '';
    if (!a.test) {
      const last = i === attempts.length - 1;
      const what =
        a.repeated !== undefined
          ? repeatedWords(a.repeated)
          : running && last
            ? '⏳ under way'
            : a.files.length === 0
              ? `nothing applied${refused ? `: ${refused}` : ''}`
              : 'the tests did not run';
      return `${head} ${what}${changed(a)}`;
    }
    const line = `${head} ${attemptResult(a.test)}${changed(a)}${refused ? `; ${refused}` : ''}`;
    return a.test.passed
      ? line
      : `${line}\n\n${failureDetails(a.test, `What failed in ${name[0]!.toLowerCase()}${name.slice(1).replace(/ of \d+$/, '')}`)}`;
  });
  return `#### Attempts\n\n${entries.join('\n\n')}`;
}
