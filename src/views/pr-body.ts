import type { DependencyChange } from '../events/effect-results.js';
import { prMarker } from '../forges/markers.js';
import { qualityBlocks } from '../machines/attempt-progress.js';
import { type JobContext, tokensSpent, type UsageTotals } from '../machines/job-context.js';
import type { SandboxChoice } from '../sandbox/sandbox-mode.js';
import { selfConfigChanges } from '../workspace/self-modification.js';
import { failingCount, repeatedWords } from './attempt-report.js';
import { bullets, capBody, code, fenced, formatDuration } from './markdown-format.js';
import { attemptPlace, explanationOf, filesOnPr, roundLine, triedWords } from './round-record.js';
import { qualityHold, sandboxWarning, testEvidence, weakEvidence } from './test-evidence.js';

// The draft pull request's title and body: a pure function of the job, so a resumed job writes
// exactly the body the first run would have written.

export const SELF_MODIFICATION_NOTE =
  '> [!WARNING]\n> This pull request changes booty itself. It stays a draft until a human reviews it: booty never promotes its own changes.';

export function prTitle(job: Pick<JobContext, 'analysis' | 'issue'>): string {
  const kind = job.analysis?.changeKind ?? 'fix';
  const title = job.issue.title.trim() || `issue #${job.issue.number}`;
  const full = `${kind}: ${title}`;
  return full.length > 200 ? `${full.slice(0, 199)}…` : full;
}

/** The model's own account of the change: the first loop's last applied attempt's; rounds tell their own. */
export function changeSummary(
  job: Pick<JobContext, 'attempts' | 'analysis' | 'issue' | 'conversation'>,
): string {
  return (explanationOf(job, null) || job.analysis?.summary || job.issue.title).trim();
}

/** Outcomes that say the work did not pass: none of them may close the issue. */
const FAILING: ReadonlySet<string> = new Set([
  'tests-failing',
  'tests-unknown',
  'tests-unreadable',
  'test-command-broken',
  'test-command-timeout',
  'no-changes',
  'stalled',
  'policy',
  'environment',
  'budget',
  'error',
]);

/**
 * Whether the work in this PR was seen passing: the latest attempt's own run passed and nothing
 * failed the job since. An attempt that applied changes and was never tested proves nothing. Once
 * rounds run, what counts is the PR's head: a round that pushed nothing leaves the work it had.
 */
export function testsProven(
  job: Pick<JobContext, 'attempts' | 'outcome'> & Partial<Pick<JobContext, 'conversation'>>,
): boolean {
  if (job.conversation?.rounds.some((r) => r.result !== 'answered')) return job.conversation.headTested;
  const latest = job.attempts.at(-1);
  return latest?.test?.passed === true && !(job.outcome && FAILING.has(job.outcome.reason));
}

export function renderPrBody(
  job: JobContext,
  extra: {
    /** What the change does to dependencies, as the workspace read it when the PR opened (else the logged PR's). */
    dependencies?: DependencyChange[];
    /** Or, for a PR whose log did not record them, that section as its body holds it (see carriedDependencies). */
    carried?: string | null;
    sandbox?: SandboxChoice;
  } = {},
): string {
  const test = job.lastTest;
  const passed = testsProven(job);
  const tried = triedWords(job.attempt, job.conversation.rounds, job.maxAttempts);
  const sections = [prMarker(job.jobId)];
  if (job.settings.selfModification) sections.push(SELF_MODIFICATION_NOTE);
  const selfConfig = job.settings.selfModification ? selfConfigChanges(job.changes.map((c) => c.path)) : [];
  if (selfConfig.length) sections.push(selfConfigWarning(selfConfig));
  if (!passed) {
    const why =
      qualityHold(job) ??
      job.outcome?.message ??
      (test?.verdict === 'unknown'
        ? `booty could not see the tests pass after ${tried}.`
        : `The tests still fail after ${tried}.`);
    sections.push(`> [!CAUTION]\n> ${why} This draft holds the work so far for a human to pick up.`);
  }
  const warning = sandboxWarning([job.baseline, test], extra.sandbox);
  if (warning) sections.push(warning);
  const weak = passed ? weakEvidence(test) : null;
  if (weak) sections.push(weak);
  // Only a change whose tests were seen passing closes the issue.
  const link = passed ? `Closes #${job.issue.number}` : `Refs #${job.issue.number}`;
  const previous = job.request.previous?.pr
    ? `\n\nFollows #${job.request.previous.pr.number}, the earlier attempt at this issue, which this pull request does not change.`
    : '';
  sections.push(`## Summary\n\n${changeSummary(job)}\n\n${link}${previous}`);
  sections.push(
    `## Files changed\n\n${bullets(
      job.pr ? filesOnPr(job) : job.changes.map((c) => (c.content === null ? `${c.path} (deleted)` : c.path)),
      50,
    )}`,
  );
  const dependencies = extra.dependencies ?? job.pr?.dependencies ?? [];
  if (dependencies.length) {
    // Installed without their lifecycle scripts: booty does not run code the change brought in.
    sections.push(
      `${DEPENDENCIES}${dependencies
        .map((d) => `${code(d.file)}:\n${fenced(d.lines.join('\n'), 'diff')}`)
        .join(
          '\n\n',
        )}\n\nbooty installs the dependencies a change brings without running their install scripts.`,
    );
  } else if (extra.carried) sections.push(extra.carried);
  sections.push(`## Test evidence\n\n${testEvidence(job)}`);
  // What failed is told once, attempt by attempt, in the progress comment: the body points there.
  if (test && !test.passed && qualityBlocks(test).length === 0) {
    sections.push(
      `## What failed\n\nWhat each attempt's tests showed is in booty's progress comment on #${job.issue.number}.`,
    );
  }
  if (job.attempts.length > 1) sections.push(`## Attempts\n\n${attemptsTable(job)}`);
  const rounds = roundsList(job);
  if (rounds) sections.push(`## Rounds\n\n${rounds}`);
  sections.push(`## Model usage\n\n${usageLine(job.usage)}`);
  sections.push(
    `---\nOpened by booty for job ${code(job.jobId)} from #${job.issue.number}, branch ${code(job.branch)}.`,
  );
  return capBody(sections.join('\n\n'));
}

const DEPENDENCIES = '## Dependency changes\n\n';

/**
 * The dependency changes section of a PR body booty wrote, to carry into the next version of it,
 * for a PR opened before its log recorded the dependencies (openPr's result without them).
 */
export function carriedDependencies(body: string): string | null {
  const start = body.indexOf(DEPENDENCIES);
  if (start < 0) return null;
  const end = body.indexOf('\n\n## ', start + DEPENDENCIES.length);
  return body.slice(start, end < 0 ? undefined : end);
}

/** A self-modification that touches booty's workflows or config: the reviewer must see it first. */
function selfConfigWarning(paths: string[]): string {
  return `> [!IMPORTANT]\n> **This change touches booty's workflows or configuration**, which decide how booty is built, checked and run:\n${paths
    .slice(0, 20)
    .map((p) => `> - ${code(p)}`)
    .join('\n')}`;
}

const thousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Tokens in all four kinds, and what they cost. */
export function usageLine(usage: UsageTotals): string {
  return `${thousands(tokensSpent(usage))} tokens (${thousands(usage.inputTokens)} in, ${thousands(usage.outputTokens)} out, ${thousands(usage.cacheReadTokens)} cache read, ${thousands(usage.cacheWriteTokens)} cache write) · $${usage.costUsd.toFixed(4)}`;
}

/** Each round after the PR opened: what asked for it and what it left on the PR. */
function roundsList(job: JobContext): string | null {
  const rounds = job.conversation.rounds;
  if (!rounds.length || job.request.onPr) return null;
  return rounds.map((r) => roundLine(job, r)).join('\n');
}

export function attemptsTable(
  job: Pick<JobContext, 'attempts'> & Partial<Pick<JobContext, 'conversation'>>,
): string {
  const rounds = job.conversation?.rounds ?? [];
  const rows = job.attempts.map((a) => {
    const result = a.test
      ? a.test.passed
        ? `✅ passed (${a.test.totals?.passed ?? 0} tests)`
        : qualityBlocks(a.test).length
          ? `${a.test.verdict === 'unknown' ? '❔' : '❌'} tests passed; ${qualityBlocks(a.test)
              .map((q) => code(q.command))
              .join(', ')} did not`
          : a.test.verdict === 'unknown'
            ? `❔ not proven: ${a.test.reasons?.[0]?.message ?? 'no result'}`
            : `❌ ${failingCount(a.test)} failing${a.test.timedOut ? ', timed out' : ''}`
      : a.repeated !== undefined
        ? repeatedWords(a.repeated)
        : 'nothing applied';
    const rejected = a.rejected.length ? `${a.rejected.length} rejected` : '';
    const { round, k } = attemptPlace(a.n, rounds);
    const name = round === null ? String(k) : `round ${round}, ${k}`;
    return `| ${name} | ${a.files.length}${rejected ? ` (${rejected})` : ''} | ${result} | ${a.test ? formatDuration(a.test.durationMs) : ''} |`;
  });
  return ['| Attempt | Files | Result | Duration |', '|---|---|---|---|', ...rows].join('\n');
}
