import { describe, expect, it } from 'vitest';
import type { QualityRun } from '../../src/events/effect-results.js';
import {
  compareQuality,
  onBaseline,
  type QualityFacts,
  qualityVerdict,
  unjudgeableOnBase,
} from '../../src/sandbox/quality-compare.js';

// Given the quality command's run on the base commit, when it runs after the change, then its
// verdict: a new failure fails, an old one does not, and what booty cannot tell never passes.

const run = (exitCode: number | null, findings: string[] = [], timedOut = false): QualityFacts => ({
  command: 'npm run lint',
  exitCode,
  timedOut,
  durationMs: 10,
  findings,
  outputTail: findings.join('\n'),
});
const base = (facts: QualityFacts) => onBaseline(facts);
/** As many findings as parseFindings keeps: any past them were never read. */
const capped = Array.from({ length: 1_000 }, (_, i) => `src/f${i}.js: no-var`);

describe('compareQuality', () => {
  it.each<[string, QualityRun | undefined, QualityFacts, QualityRun['verdict'], string | null, string[]]>([
    ['passing after the change', base(run(1, ['a.js: no-var'])), run(0), 'pass', null, []],
    [
      'failing after passing on the base: a new failure, every finding new',
      base(run(0)),
      run(1, ['src/a.js: no-console']),
      'fail',
      'passed on the base commit and exited 1 after the change',
      ['src/a.js: no-console'],
    ],
    [
      'failing with a finding the failing base did not have',
      base(run(1, ['old.js: no-var'])),
      run(1, ['old.js: no-var', 'src/a.js: no-console']),
      'fail',
      '1 new finding compared to the base commit, which already failed',
      ['src/a.js: no-console'],
    ],
    [
      'failing with only the base findings: the failure is not the change',
      base(run(1, ['old.js: no-var', 'b.js: eqeqeq'])),
      run(1, ['old.js: no-var']),
      'pass',
      'already failed on the base commit; the change adds no finding',
      [],
    ],
    [
      'failing on both with no finding to compare: booty cannot tell',
      base(run(2)),
      run(2),
      'unknown',
      'exited 2, as it did on the base commit, and its output names no finding at a file and line that booty can compare: booty cannot tell whether the change added a failure',
      [],
    ],
    [
      'failing with no finding where the base had some: booty cannot tell',
      base(run(1, ['old.js: no-var'])),
      run(1),
      'unknown',
      'exited 1, as it did on the base commit, and its output names no finding at a file and line that booty can compare: booty cannot tell whether the change added a failure',
      [],
    ],
    [
      'timing out where the base finished',
      base(run(0)),
      run(null, [], true),
      'fail',
      'timed out after the change; it finished on the base commit',
      [],
    ],
    [
      'timing out as the base did',
      base(run(null, [], true)),
      run(null, [], true),
      'unknown',
      'timed out, as it did on the base commit: booty cannot tell what it would have found',
      [],
    ],
    [
      'failing with no run on the base to compare with',
      undefined,
      run(1, ['a.js: x']),
      'unknown',
      'exited 1, and there is no run of it on the base commit to compare with',
      [],
    ],
    [
      'failing with only the base findings where the base output was cut: a new finding may be in what was dropped',
      base({ ...run(1, ['old.js: no-var']), incomplete: true }),
      run(1, ['old.js: no-var']),
      'unknown',
      'exited 1, as it did on the base commit, and its run on the base commit printed more than booty reads in full: booty cannot tell whether the change added a finding',
      [],
    ],
    [
      'failing with only the base findings where the output after the change was cut',
      base(run(1, ['old.js: no-var'])),
      { ...run(1, ['old.js: no-var']), incomplete: true },
      'unknown',
      'exited 1, as it did on the base commit, and its run after the change printed more than booty reads in full: booty cannot tell whether the change added a finding',
      [],
    ],
    [
      'failing with the findings cap hit on both (a run logged before the incomplete flag)',
      base(run(1, capped)),
      run(1, capped),
      'unknown',
      'exited 1, as it did on the base commit, and its run on the base commit printed more than booty reads in full: booty cannot tell whether the change added a finding',
      [],
    ],
    [
      'failing after passing on the base, its output cut: still a new failure',
      base(run(0)),
      { ...run(1, ['src/a.js: no-console']), incomplete: true },
      'fail',
      'passed on the base commit and exited 1 after the change',
      ['src/a.js: no-console'],
    ],
  ])('given %s', (_, before, after, verdict, reason, added) => {
    expect(compareQuality(before, after)).toEqual({ ...after, verdict, reason, newFindings: added });
  });
});

describe('onBaseline', () => {
  it('records whether the command passed on the base commit, with its findings', () => {
    expect(onBaseline(run(1, ['a.js: no-var']))).toMatchObject({
      verdict: 'fail',
      reason: 'exited 1 on the base commit',
      findings: ['a.js: no-var'],
      newFindings: [],
    });
    expect(onBaseline(run(0))).toMatchObject({ verdict: 'pass', reason: null });
  });
});

describe('qualityVerdict', () => {
  const of = (...verdicts: QualityRun['verdict'][]) =>
    qualityVerdict(verdicts.map((verdict) => ({ ...onBaseline(run(0)), verdict })));
  it('fails on any new failure, is unknown on anything booty cannot tell, and passes otherwise', () => {
    expect(of('pass', 'unknown', 'fail')).toBe('fail');
    expect(of('pass', 'unknown')).toBe('unknown');
    expect(of('pass', 'pass')).toBe('pass');
    expect(of()).toBe('pass');
  });
});

describe('unjudgeableOnBase: what no attempt can make booty able to judge', () => {
  const judged = (b: QualityRun | undefined, after: QualityFacts) =>
    unjudgeableOnBase(b, compareQuality(b, after));
  it.each<[string, QualityRun | undefined, QualityFacts, boolean]>([
    ['no finding named, on the base and after the change', base(run(1)), run(1), true],
    ['timed out on the base and after the change', base(run(null, [], true)), run(null, [], true), true],
    ['its output on the base cut short', base(run(1, capped)), run(1, capped), true],
    ['a program that cannot start', base(run(127)), run(127), true],
    [
      'findings on the base, none after the change: the change broke its output',
      base(run(1, ['a.js: no-var'])),
      run(1),
      false,
    ],
    [
      'findings cut short after the change only: the change flooded them',
      base(run(1, ['a.js: no-var'])),
      run(1, capped),
      false,
    ],
    ['no run on the base commit to compare with', undefined, run(1), false],
    ['a new finding: judged', base(run(1, ['a.js: no-var'])), run(1, ['b.js: eqeqeq']), false],
  ])('%s: %s', (_name, b, after, expected) => expect(judged(b, after)).toBe(expected));
});
