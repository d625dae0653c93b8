import type { QualityRun, TestRun, VerdictReason } from '../events/effect-results.js';
import { qualityBlocks } from '../machines/attempt-progress.js';
import type { JobContext } from '../machines/job-context.js';
import { READABLE_FIX } from '../refine/class-guidance.js';
import type { SandboxChoice } from '../sandbox/sandbox-mode.js';
import { plural } from '../text.js';
import { bullets, code, fenced, formatDuration, tail } from './markdown-format.js';
import { attemptName, triedWords } from './round-record.js';
import { failuresOf, ownStack, testTotals } from './test-failures.js';

// What booty saw of the tests, in the words the PR body and the progress comment share: the counts
// after the change and on the baseline, what the baseline already failed, the tests the change
// added, why a run did not pass and what a human can do about it, and whether the tests ran
// without the sandbox. Pure functions of the job.

type Run = Pick<TestRun, 'totals' | 'exitCode' | 'signal' | 'timedOut' | 'cases' | 'loadErrors' | 'ran'> &
  Partial<Pick<TestRun, 'failingTests'>>;

/** The runner named files and how many of their tests passed, not each test (uvu). */
export const perFile = (run: Partial<Pick<TestRun, 'cases'>> | null | undefined) =>
  (run?.cases ?? []).some((c) => c.scope === 'file');

/** "12 tests: 10 passed, 1 failed, 1 skipped"; an entry that stands for a whole file is no test. */
export function counts(run: Pick<TestRun, 'totals'> & Partial<Pick<TestRun, 'cases'>>): string {
  const t = testTotals(run);
  const failed = t.failed + t.errored;
  const how = perFile(run) ? ', counted per file' : '';
  return `${plural(t.total, 'test')}: ${t.passed} passed, ${failed} failed, ${t.skipped} skipped${how}`;
}

const PER_FILE =
  'The evidence is per file: the test runner reports how many tests of each file passed, not each test by name. A test file this change added or modified counts as passing when all of its tests passed, and no file may show fewer tests passing than before the change.';

/** A changed test by its id; an entry for a whole file says so, with its count. */
function changedEntry(id: string, run: TestRun): string {
  const entry = run.cases.find((c) => c.id === id && c.counts);
  if (!entry?.counts) return code(id);
  const n = entry.counts.passed + entry.counts.failed + entry.counts.skipped;
  return `${code(id)} (the whole file: ${plural(n, 'test')}, ${entry.counts.passed} passed)`;
}

function exitWords(run: Pick<TestRun, 'exitCode' | 'signal' | 'timedOut'>): string {
  if (run.timedOut) return 'timed out';
  if (run.signal) return `was killed by ${run.signal}`;
  return `exited ${run.exitCode ?? 'without a status'}`;
}

/** What the baseline already failed, by id, or in words when it named none. */
export function baselineFailing(baseline: Run): string {
  const failing = failuresOf({
    ...baseline,
    failingTests: baseline.failingTests ?? [],
    newFailures: [],
    addedTestsFailing: [],
  });
  const ids = [...failing.tests.map((t) => t.id), ...failing.files.map((f) => `${f.file} (file)`)];
  if (failing.tests.length)
    return `${plural(failing.tests.length, 'test')} already failing before the change:\n${bullets(ids)}`;
  if (ids.length) return `Already failing before the change:\n${bullets(ids)}`;
  if (baseline.exitCode !== 0 || baseline.timedOut || baseline.signal) {
    return `The baseline ${exitWords(baseline)} and named no failing test.`;
  }
  return 'No test failed before the change.';
}

const ADVICE: Partial<Record<VerdictReason['code'], string>> = {
  'not-run':
    "Check that `test.command` in `.github/booty.yml` runs on booty's machine: a tool installed outside the system directories must be listed in `BOOTY_SANDBOX_RO_PATHS`.",
  'no-test-passed':
    "booty reads results from the test runner's own report. For a runner it does not recognise, have the tests write a JUnit XML, TAP or `go test -json` report and point `test.report` in `.github/booty.yml` at it.",
  'exit-disagrees':
    "booty reads results from the test runner's own report. For a runner it does not recognise, have the tests write a JUnit XML, TAP or `go test -json` report and point `test.report` in `.github/booty.yml` at it.",
  'changed-test-unseen':
    'The test command must run the tests this change added: check that they sit where the runner looks for tests, or widen `test.command`.',
};

/** Reasons that only name failing tests: where the tests are listed with their messages, they say nothing more. */
const LISTING: ReadonlySet<VerdictReason['code']> = new Set([
  'changed-test-failed',
  'baseline-test-failed',
  'baseline-test-missing',
]);

/** Why the last run did not pass, each reason with what to do; `listed` when its failing tests are shown apart. */
export function verdictReasons(run: Pick<TestRun, 'reasons'>, options: { listed?: boolean } = {}): string {
  const all = run.reasons ?? [];
  const reasons = options.listed ? all.filter((r) => !LISTING.has(r.code)) : all;
  const advice = [...new Set(all.map((r) => ADVICE[r.code]).filter(Boolean))];
  if (reasons.length === 0 && advice.length === 0) return '';
  const lines = reasons.map((r) => `- ${r.level === 'fail' ? '❌' : '❔'} ${r.message}`);
  return [lines.join('\n'), ...advice].filter(Boolean).join('\n\n');
}

/** A pass on the exit status alone (booty.yml's `gate: exit-code`), as a warning block; null otherwise. */
export function weakEvidence(run: Pick<TestRun, 'evidence' | 'reasons'> | null | undefined): string | null {
  if (run?.evidence !== 'exit-code') return null;
  const unseen = run.reasons.map((r) => r.message).join('; ');
  return `> [!WARNING]\n> **Weak evidence.** \`.github/booty.yml\` says \`gate: exit-code\`, so this change passed because its test command exited 0. booty could not see its tests pass (${unseen}). Review the change as untested, or let booty read the runner (\`test.report\`, or the runner's TAP or JUnit reporter) and remove \`gate: exit-code\`.`;
}

/**
 * One line for people when the tests ran without bubblewrap, or null. With the choice of mode it
 * says who made it; without, it says only what happened. A run records how it was contained, not
 * why: `unshare` is BOOTY_SANDBOX=off as much as `auto` where bubblewrap cannot run.
 */
export function sandboxNotice(
  runs: (Pick<TestRun, 'sandbox'> | null | undefined)[],
  choice?: SandboxChoice,
): string | null {
  const weakest = runs.find((r) => r && r.sandbox !== 'bwrap');
  if (!weakest) return null;
  const how =
    weakest.sandbox === 'unshare'
      ? 'without bubblewrap, only in their own process namespace'
      : 'without any sandbox';
  const why = choice ? ` (${chosenBy(choice)})` : '';
  return `The tests ran ${how}${why}: they could read the machine's files and reach its network.`;
}

function chosenBy({ mode, by }: SandboxChoice): string {
  const who =
    by === 'operator'
      ? `BOOTY_SANDBOX=${mode}, the operator's setting`
      : `${mode}, the default with BOOTY_SANDBOX unset`;
  return mode === 'off'
    ? who
    : `bubblewrap cannot run on this machine, and ${who}, runs the tests without it then`;
}

/** The same, as a warning block for the PR body and the comment. */
export function sandboxWarning(
  runs: (Pick<TestRun, 'sandbox'> | null | undefined)[],
  choice?: SandboxChoice,
): string | null {
  const notice = sandboxNotice(runs, choice);
  return notice ? `> [!WARNING]\n> ${notice}` : null;
}

function qualityCell(q: QualityRun | undefined): string {
  if (!q) return 'not run';
  const mark = q.verdict === 'pass' ? '✅' : q.verdict === 'unknown' ? '❔' : '❌';
  return `${mark} ${q.reason ?? 'passed'}`;
}

/**
 * The quality commands before and after the change, and what each blocking one found; empty when
 * none ran. After a change they run only once the tests pass.
 */
export function qualityEvidence(job: Pick<JobContext, 'lastTest' | 'baseline'>): string {
  const before = job.baseline?.quality ?? [];
  const after = job.lastTest?.quality ?? [];
  if (before.length === 0 && after.length === 0) return '';
  const commands = [...new Set([...before, ...after].map((q) => q.command))];
  const notRun = job.lastTest && !job.lastTest.quality ? 'not run: the tests did not pass' : 'not run';
  const rows = commands.map((c) => {
    const a = after.find((q) => q.command === c);
    return `| ${code(c)} | ${qualityCell(before.find((q) => q.command === c))} | ${a ? qualityCell(a) : notRun} |`;
  });
  const parts = [
    ['| Quality command | Before the change | After the change |', '|---|---|---|', ...rows].join('\n'),
  ];
  for (const q of qualityBlocks(job.lastTest)) parts.push(qualityFound(q));
  return parts.join('\n\n');
}

/** What one blocking quality command found: its new findings, or why it blocks and the end of its output. */
export function qualityFound(q: QualityRun): string {
  return q.newFindings.length
    ? `${code(q.command)} found what the base commit did not have:\n${bullets(q.newFindings)}`
    : `${code(q.command)} ${q.reason}. The end of its output:\n\n${fenced(tail(q.outputTail, 30, 3000) || '(no output)')}`;
}

/** The blocking quality commands in a few words: "`npm run lint` found 2 new findings". */
export function qualityWords(blocking: QualityRun[]): string {
  return blocking
    .map((q) =>
      q.newFindings.length
        ? `${code(q.command)} found ${plural(q.newFindings.length, 'new finding')}`
        : `${code(q.command)} ${q.verdict === 'unknown' ? 'could not be judged' : 'failed'}`,
    )
    .join('; ');
}

/**
 * Why a draft whose tests pass is held back by its quality commands, or null when it is not: the
 * outcome's words ("the tests still fail") say nothing of quality, so the PR body and the comment
 * name the commands instead.
 */
export function qualityHold(
  job: Pick<JobContext, 'lastTest' | 'outcome' | 'attempt' | 'maxAttempts'> &
    Partial<Pick<JobContext, 'conversation'>>,
): string | null {
  const blocking = qualityBlocks(job.lastTest);
  const reason = job.outcome?.reason;
  if (blocking.length === 0 || (reason && reason !== 'tests-failing' && reason !== 'tests-unknown'))
    return null;
  const named = (runs: QualityRun[]) =>
    `${runs.map((q) => code(q.command)).join(', ')} ${runs.length === 1 ? 'fails' : 'fail'}`;
  const failing = blocking.filter((q) => q.verdict === 'fail');
  const unknown = blocking.filter((q) => q.verdict === 'unknown');
  const parts = [
    ...(failing.length ? [`${named(failing)} with failures the base commit did not have`] : []),
    ...(unknown.length ? [`booty cannot tell whether ${named(unknown)} because of the change`] : []),
  ];
  const tried = triedWords(job.attempt, job.conversation?.rounds ?? [], job.maxAttempts);
  return `The tests pass, but ${parts.join(', and ')} after ${tried}.`;
}

/** The test evidence table and lists for the PR body and the comment. */
export function testEvidence(
  job: Pick<JobContext, 'lastTest' | 'baseline' | 'attempt' | 'maxAttempts'> &
    Partial<Pick<JobContext, 'conversation'>>,
): string {
  const test = job.lastTest;
  if (!test) return '_No test run was recorded._';
  const baseline = job.baseline;
  // A run whose tests passed is held back by its quality commands: say which failed.
  const byQuality = qualityBlocks(test).length ? ' (a quality command)' : '';
  const result =
    test.verdict === 'pass'
      ? test.evidence === 'exit-code'
        ? '✅ passed on the exit status alone (weak evidence)'
        : '✅ passed'
      : test.verdict === 'unknown'
        ? `❔ not proven${byQuality}`
        : `❌ failing${byQuality}`;
  const rows = [
    ['Result', result],
    ['Command', code(test.command)],
    ['After the change', `${counts(test)}; ${exitWords(test)} in ${formatDuration(test.durationMs)}`],
    ['Before the change', baseline ? `${counts(baseline)}; ${exitWords(baseline)}` : 'not run'],
    [
      'Attempt',
      attemptName(job.attempt, job.conversation?.rounds ?? [], job.maxAttempts).replace(/^Attempt /, ''),
    ],
  ];
  const parts = [['| | |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join('\n')];
  if (perFile(test) || perFile(baseline)) parts.push(PER_FILE);
  if (baseline) parts.push(baselineFailing(baseline));
  // A failing test is named once, where its failure is told: in the progress comment.
  const failing = new Set(test.failingTests);
  const changedIds = test.changedTests ?? [];
  const changed = changedIds.filter((id) => !failing.has(id)).map((id) => changedEntry(id, test));
  const failed = changedIds.length - changed.length;
  if (failed)
    changed.push(`${failed} more that ${failed === 1 ? 'fails' : 'fail'}, named in booty's progress comment`);
  parts.push(
    changed.length
      ? `Tests this change added or modified:\n${bullets(changed, 20, (s) => s)}`
      : 'This change added or modified no test.',
  );
  // The PR body lists the failing tests with their messages under the evidence.
  const why = verdictReasons(test, { listed: true });
  if (why) parts.push(why);
  const quality = qualityEvidence(job);
  if (quality) parts.push(quality);
  return parts.join('\n\n');
}

/** For a baseline booty could not read: what to set in booty.yml. */
function unreadableBaseline(baseline: TestRun): string {
  return [
    `What ${code(baseline.command)} printed on the base branch holds no test result booty can read (it ${exitWords(baseline)}).`,
    `Its last lines:\n\n${fenced(tail(baseline.outputTail, 30, 3000) || '(no output)')}`,
    `${READABLE_FIX}.`,
    `\`\`\`yaml\n# .github/booty.yml\ntest:\n  command: ${baseline.command}\n  report: test-results.xml # a JUnit XML or TAP report the tests write (globs too)\n# or, to accept the exit status alone (weak evidence):\n# gate: exit-code\n\`\`\``,
  ].join('\n\n');
}

/** For a baseline that cannot run: the command, how it ended, its last lines, and the fix. */
export function brokenBaseline(baseline: TestRun): string {
  if (baseline.broken?.reason === 'tests-unreadable') return unreadableBaseline(baseline);
  const timeout = baseline.broken?.reason === 'test-command-timeout';
  const fix = timeout
    ? 'Raise `timeoutSeconds` in `.github/booty.yml`, or point `test.command` at a faster suite.'
    : "Fix the command on the default branch: set `test.command` (and `install.command`, if the tests need one) in `.github/booty.yml` to what runs the tests on a fresh checkout. A tool installed outside the system directories must be listed in booty's `BOOTY_SANDBOX_RO_PATHS`.";
  return [
    `The test command ${code(baseline.command)} ${exitWords(baseline)} on the base branch${baseline.broken ? `: ${baseline.broken.message}` : ''}.`,
    `Its last lines:\n\n${fenced(ownStack(tail(baseline.outputTail, 30, 3000), 30, 3000) || '(no output)')}`,
    fix,
    `\`\`\`yaml\n# .github/booty.yml\ntest:\n  command: ${baseline.command}\n${timeout ? 'timeoutSeconds: 1200\n' : ''}\`\`\``,
  ].join('\n\n');
}
