import type { QualityRun } from '../events/effect-results.js';
import { plural } from '../text.js';
import { findingsCapped, newFindings } from './quality-findings.js';

// Whether a quality command's failure after a change is the change's doing. A command that passed
// on the base commit and fails now is a new failure. One that failed on the base too is compared by
// its findings: a finding the base did not have is new. When neither run names a finding booty can
// compare, booty cannot tell, says so, and does not promote: proof, not absence of evidence. So too
// when either run's findings may be cut short (output capped, or the findings cap hit): a new
// finding may be among those never read.

/** What one run of a quality command showed, before any comparison. */
export type QualityFacts = Pick<
  QualityRun,
  'command' | 'exitCode' | 'timedOut' | 'durationMs' | 'findings' | 'incomplete' | 'outputTail'
>;

const exited = (r: Pick<QualityFacts, 'exitCode' | 'timedOut'>) =>
  r.timedOut ? 'timed out' : `exited ${r.exitCode ?? 'without a status'}`;

const incomplete = (r: Pick<QualityFacts, 'findings' | 'incomplete'>) =>
  r.incomplete === true || findingsCapped(r.findings);

const passes = (r: Pick<QualityFacts, 'exitCode' | 'timedOut'>) => r.exitCode === 0 && !r.timedOut;

/** A run on the base commit: the verdict is only whether it passed there. */
export function onBaseline(facts: QualityFacts): QualityRun {
  if (passes(facts)) return { ...facts, verdict: 'pass', reason: null, newFindings: [] };
  return { ...facts, verdict: 'fail', reason: `${exited(facts)} on the base commit`, newFindings: [] };
}

/** A run after a change, against the same command's run on the base commit (undefined if there was none). */
export function compareQuality(base: QualityRun | undefined, after: QualityFacts): QualityRun {
  const result = (
    verdict: QualityRun['verdict'],
    reason: string | null,
    added: string[] = [],
  ): QualityRun => ({
    ...after,
    verdict,
    reason,
    newFindings: added,
  });
  if (passes(after)) return result('pass', null);
  if (!base)
    return result(
      'unknown',
      `${exited(after)}, and there is no run of it on the base commit to compare with`,
    );
  if (after.timedOut) {
    return base.timedOut
      ? result(
          'unknown',
          'timed out, as it did on the base commit: booty cannot tell what it would have found',
        )
      : result('fail', 'timed out after the change; it finished on the base commit');
  }
  if (passes(base)) {
    return result('fail', `passed on the base commit and ${exited(after)} after the change`, after.findings);
  }
  if (incomplete(base) || incomplete(after)) {
    const which = incomplete(base) ? 'on the base commit' : 'after the change';
    return result(
      'unknown',
      `${exited(after)}, as it did on the base commit, and its run ${which} printed more than booty reads in full: booty cannot tell whether the change added a finding`,
    );
  }
  const added = newFindings(base.findings, after.findings);
  if (added.length) {
    return result(
      'fail',
      `${plural(added.length, 'new finding')} compared to the base commit, which already failed`,
      added,
    );
  }
  if (after.findings.length === 0) {
    return result(
      'unknown',
      `${exited(after)}, as it did on the base commit, and its output names no finding at a file and line that booty can compare: booty cannot tell whether the change added a failure`,
    );
  }
  return result('pass', 'already failed on the base commit; the change adds no finding');
}

/**
 * Booty cannot judge the command whatever a change does, for the base commit's run alone: the
 * command could not start, it timed out there and again now, its output there may be cut short, or
 * it names no finding there or now. No attempt can change that. One the change itself made
 * unreadable (its findings gone, its output cut short now) another attempt can.
 */
export function unjudgeableOnBase(base: QualityRun | undefined, after: QualityRun): boolean {
  if (after.verdict !== 'unknown' || !base) return false;
  if (after.exitCode === 126 || after.exitCode === 127) return true;
  if (after.timedOut) return base.timedOut;
  if (incomplete(base)) return true;
  return base.findings.length === 0 && after.findings.length === 0;
}

/** The runs together: any new failure fails, anything booty cannot tell is unknown. */
export function qualityVerdict(runs: readonly QualityRun[]): QualityRun['verdict'] {
  if (runs.some((r) => r.verdict === 'fail')) return 'fail';
  if (runs.some((r) => r.verdict === 'unknown')) return 'unknown';
  return 'pass';
}
