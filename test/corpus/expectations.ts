import type { CorpusCase } from './cases.js';

// Shorthands for the expectation table in cases/*.ts.

type Expect = CorpusCase['expect'];

/** A baseline whose command ran. */
export const ran = (passed: number, failed = 0, skipped = 0, failing: string[] = []): Expect['baseline'] => ({
  broken: null,
  passed,
  failed,
  skipped,
  failing,
});

/** A baseline whose command could not run the tests. */
export const broken = (failed = 0, failing: string[] = []): Expect['baseline'] => ({
  broken: 'test-command-broken',
  passed: 0,
  failed,
  skipped: 0,
  failing,
});

export const verdict = (
  v: 'pass' | 'fail' | 'unknown',
  passed: number,
  failed = 0,
  skipped = 0,
  failing: string[] = [],
): NonNullable<Expect['after']> => ({ verdict: v, passed, failed, skipped, failing });
