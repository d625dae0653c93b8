import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TestCase } from '../../src/events/effect-results.js';
import { judge } from '../../src/sandbox/test-verdict.js';

// For random baselines and runs after a change, the verdict passes exactly when the rule holds.
// The rule is written here a second time, from its statement, not from the code:
//   the command ran (and did not time out); at least one test was seen passing; every test the
//   change added or modified was seen and passed; no test that passed on the baseline fails or
//   disappears; the exit status agrees with the named results.

const FILES = ['test/a.test.js', 'test/b.test.js'];
const NAMES = ['adds', 'parses 1 h', 'subtracts'];
const IDS = FILES.flatMap((f) => NAMES.map((n) => ({ id: `${f} > ${n}`, file: f, name: n })));

type Status = TestCase['status'] | 'absent';
const status = fc.constantFrom<Status>('absent', 'passed', 'passed', 'failed', 'errored', 'skipped');

const casesOf = (statuses: Status[]): TestCase[] =>
  IDS.flatMap((t, i) =>
    statuses[i] === 'absent'
      ? []
      : [{ ...t, status: statuses[i] as TestCase['status'], durationMs: null, message: null }],
  );

/** Runs after a change are mostly like their baseline, so the rule's every clause gets exercised. */
const world = fc
  .record({
    before: fc.array(status, { minLength: IDS.length, maxLength: IDS.length }),
    edits: fc.array(fc.option(status, { freq: 4 }), { minLength: IDS.length, maxLength: IDS.length }),
    touched: fc.array(
      fc.integer({ min: 0, max: 99 }).map((n) => n < 15),
      { minLength: IDS.length, maxLength: IDS.length },
    ),
    ran: fc.constantFrom(true, true, true, true, false),
    timedOut: fc.constantFrom(false, false, false, false, true),
    exit: fc.constantFrom<'agrees' | 0 | 1 | 127>('agrees', 'agrees', 'agrees', 0, 1, 127),
  })
  .map(({ before, edits, touched, ran, timedOut, exit }) => {
    const after = before.map((s, i) => edits[i] ?? s);
    const failing = after.some((s) => s === 'failed' || s === 'errored');
    const exitCode = exit === 'agrees' ? (failing ? 1 : 0) : exit;
    return { before, after, touched, ran, timedOut, exitCode };
  });

type World = typeof world extends fc.Arbitrary<infer T> ? T : never;

function ruleHolds(w: World): boolean {
  const after = (i: number) => w.after[i];
  const failing = w.after.some((s) => s === 'failed' || s === 'errored');
  const exitedZero = w.exitCode === 0 && !w.timedOut;
  const changed = IDS.map((_, i) => (w.after[i] !== 'absent' && w.before[i] === 'absent') || w.touched[i]);
  return (
    w.ran &&
    !w.timedOut &&
    w.after.includes('passed') &&
    IDS.every((_, i) => !changed[i] || after(i) === 'passed') &&
    IDS.every((_, i) => w.before[i] !== 'passed' || after(i) === 'passed') &&
    exitedZero === !failing
  );
}

describe('the verdict', () => {
  it('passes exactly when the rule holds, and never without a test seen passing', () => {
    let passes = 0;
    fc.assert(
      fc.property(world, (w) => {
        const ran = w.ran && w.exitCode !== 127;
        const j = judge({
          baseline: { cases: casesOf(w.before), loadErrors: [] },
          run: {
            ran,
            exitCode: w.timedOut ? null : w.exitCode,
            signal: w.timedOut ? 'SIGKILL' : null,
            timedOut: w.timedOut,
            cases: casesOf(w.after),
            loadErrors: [],
          },
          touched: IDS.filter((_, i) => w.touched[i]).map(({ file, name }) => ({ file, path: [name] })),
        });
        expect(j.verdict === 'pass').toBe(ruleHolds({ ...w, ran }));
        if (j.verdict === 'pass') passes += 1;
        if (!w.after.includes('passed')) expect(j.verdict).not.toBe('pass');
        // Evidence of a break and missing evidence are told apart, and both block.
        expect(j.reasons.length === 0).toBe(j.verdict === 'pass');
      }),
      { numRuns: 5_000 },
    );
    // The generator reaches both sides of the rule often enough to test it.
    expect(passes).toBeGreaterThan(100);
  });
});
