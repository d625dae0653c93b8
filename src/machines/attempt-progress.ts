import type { FileChange, QualityRun, TestRun } from '../events/effect-results.js';
import type { AttemptRecord } from './job-context.js';

// Whether the refine loop is getting anywhere. Each attempt is measured from what its events
// recorded (the test run, the files written), so the measure folds the same on every replay.
//
// Improvement, precisely: an attempt improves when its test command ran and, against the best
// attempt before it in the same round, it has fewer new failures against the baseline, or as many
// and fewer failing tests in all, or as many of both and fewer new quality findings (below). The
// round's first attempt is the reference and is never judged. An attempt that applied nothing, or
// whose tests did not run, brings no improvement.
//
// New quality findings: over the quality commands that block the run, the findings each one has
// that the base commit did not; a blocking command that names none counts as one. A run whose
// tests failed ran no quality command and has none. Jobs requested before this rule (machine 5,
// JobRequested v4) are measured without it, so their logs fold as they ran.

export interface AttemptProgress {
  n: number;
  /** null when the attempt was not tested (nothing applied, or the command did not run). */
  passed: number | null;
  failed: number | null;
  newFailures: number | null;
  /** New findings of the quality commands that blocked the run (rule above); null when untested. */
  qualityFindings: number | null;
  /** Lines the attempt added or removed against the job's work before it (every line, at first). */
  diffLines: number;
  /** Judged against the best attempt before it; null for the round's first. */
  improved: boolean | null;
}

const ran = (run: TestRun | null): run is TestRun => run?.ran === true;

/** A quality command blocks the run: the tests passed, and it failed anew or booty could not tell. */
export const qualityBlocks = (run: Pick<TestRun, 'quality'> | null | undefined): QualityRun[] =>
  (run?.quality ?? []).filter((q) => q.verdict !== 'pass');

/** The new quality findings of a run, by the rule above. */
export const qualityFindings = (run: Pick<TestRun, 'quality'>): number =>
  qualityBlocks(run).reduce((sum, q) => sum + Math.max(q.newFindings.length, 1), 0);

/** The rule above in words, as a job is measured: for the stall's message and the trend. */
export const improvementRule = (quality: boolean) =>
  quality
    ? 'fewer new failures against the baseline, or as many and fewer failing tests, or as many of both and fewer new quality findings'
    : 'fewer new failures against the baseline, or as many and fewer failing tests';

export interface TrendOptions {
  /** Whether new quality findings count (false for jobs requested before the rule). */
  quality?: boolean;
}

/** True when `run` is better than `best` by the rule above. */
export function improves(run: TestRun, best: TestRun, options: TrendOptions = {}): boolean {
  if (run.newFailures.length !== best.newFailures.length)
    return run.newFailures.length < best.newFailures.length;
  if (run.failingTests.length !== best.failingTests.length || !options.quality)
    return run.failingTests.length < best.failingTests.length;
  return qualityFindings(run) < qualityFindings(best);
}

/** Each attempt's measure, in order; `from` is the round's first attempt (the reference). */
export function attemptTrend(
  attempts: readonly AttemptRecord[],
  from = 1,
  options: TrendOptions = { quality: true },
): AttemptProgress[] {
  const judged = improvements(attempts, from, options);
  const files = new Map<string, string | null>();
  return attempts.map((a, i) => {
    const written = a.proposed.filter((c) => a.files.includes(c.path));
    const diffLines = written.reduce((sum, c) => sum + lineDiff(files.get(c.path) ?? null, c), 0);
    for (const c of written) files.set(c.path, c.content);
    const run = ran(a.test) ? a.test : null;
    return {
      n: a.n,
      passed: run ? run.totals.passed : null,
      failed: run ? run.failingTests.length : null,
      newFailures: run ? run.newFailures.length : null,
      qualityFindings: run ? qualityFindings(run) : null,
      diffLines,
      improved: judged[i]!,
    };
  });
}

/** Whether each attempt improved on the best before it in its round (rule above); null for the
 * round's first and those before it. The stall guard needs only this, not the lines each changed. */
export function improvements(
  attempts: readonly AttemptRecord[],
  from = 1,
  options: TrendOptions = { quality: true },
): (boolean | null)[] {
  let best: TestRun | null = null;
  return attempts.map((a) => {
    const run = ran(a.test) ? a.test : null;
    let improved: boolean | null = null;
    if (a.n > from) improved = run !== null && (best === null || improves(run, best, options));
    if (run && a.n >= from && (best === null || improves(run, best, options))) best = run;
    return improved;
  });
}

/** Attempts in a row, ending with the last, that brought no improvement. */
export function attemptsWithoutImprovement(improved: readonly (boolean | null)[]): number {
  let n = 0;
  for (let i = improved.length - 1; i >= 0 && improved[i] === false; i--) n++;
  return n;
}

/** Lines in one version and not the other, counted as a multiset (an edit counts twice). */
function lineDiff(before: string | null, change: FileChange): number {
  const old = lines(before);
  const now = lines(change.content);
  const left = new Map<string, number>();
  for (const l of old) left.set(l, (left.get(l) ?? 0) + 1);
  let added = 0;
  for (const l of now) {
    const k = left.get(l) ?? 0;
    if (k > 0) left.set(l, k - 1);
    else added++;
  }
  const removed = [...left.values()].reduce((a, b) => a + b, 0);
  return added + removed;
}

const lines = (text: string | null) => (text ? text.replace(/\n$/, '').split('\n') : []);
