import type { JobContext } from '../machines/job-context.js';
import { bullets, capBody, code, formatDuration } from './markdown-format.js';
import { prMarker } from './markers.js';

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

export function renderPrBody(job: JobContext): string {
  const test = job.lastTest;
  const sections = [prMarker(job.jobId)];
  if (job.settings.selfModification) sections.push(SELF_MODIFICATION_NOTE);
  if (test && !test.passed) {
    sections.push(
      `> [!CAUTION]\n> The tests still fail after ${job.attempt} of ${job.maxAttempts} attempts. This draft holds the work so far for a human to pick up.`,
    );
  }
  sections.push(
    `## Summary\n\n${job.analysis?.summary?.trim() || job.issue.title}\n\nCloses #${job.issue.number}`,
  );
  sections.push(
    `## Files changed\n\n${bullets(
      job.changes.map((c) => (c.content === null ? `${c.path} (deleted)` : c.path)),
      50,
    )}`,
  );
  sections.push(`## Tests added\n\n${bullets(job.addedTests, 50)}`);
  sections.push(`## Test evidence\n\n${evidence(job)}`);
  if (job.attempts.length > 1) sections.push(`## Attempts\n\n${attemptsTable(job)}`);
  sections.push(
    `---\nOpened by booty for job ${code(job.jobId)} from #${job.issue.number}, branch ${code(job.branch)}.`,
  );
  return capBody(sections.join('\n\n'));
}

function evidence(job: JobContext): string {
  const test = job.lastTest;
  if (!test) return '_No test run was recorded._';
  const baseline = job.baseline?.failingTests ?? test.baselineFailures;
  const rows = [
    ['Result', test.passed ? '✅ passed' : '❌ failing'],
    ['Command', code(test.command)],
    [
      'Exit code',
      test.exitCode === null
        ? `none (${test.timedOut ? 'timed out' : (test.signal ?? 'killed')})`
        : String(test.exitCode),
    ],
    ['Duration', formatDuration(test.durationMs)],
    ['Attempt', `${job.attempt} of ${job.maxAttempts}`],
    [
      'Baseline failures',
      baseline.length ? `${baseline.length} (already failing before this change)` : 'none',
    ],
  ];
  const table = ['| | |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join('\n');
  const parts = [table];
  if (baseline.length) parts.push(`Failing before the change:\n${bullets(baseline)}`);
  if (test.newFailures.length) parts.push(`New failures:\n${bullets(test.newFailures)}`);
  if (test.addedTestsFailing.length) parts.push(`Added tests failing:\n${bullets(test.addedTestsFailing)}`);
  return parts.join('\n\n');
}

export function attemptsTable(job: Pick<JobContext, 'attempts'>): string {
  const rows = job.attempts.map((a) => {
    const result = a.test
      ? a.test.passed
        ? '✅ passed'
        : `❌ ${a.test.newFailures.length || a.test.failingTests.length} failing${a.test.timedOut ? ', timed out' : ''}`
      : 'nothing applied';
    const rejected = a.rejected.length ? `${a.rejected.length} rejected` : '';
    return `| ${a.n} | ${a.files.length}${rejected ? ` (${rejected})` : ''} | ${result} | ${a.test ? formatDuration(a.test.durationMs) : ''} |`;
  });
  return ['| Attempt | Files | Result | Duration |', '|---|---|---|---|', ...rows].join('\n');
}
