import { describe, expect, it } from 'vitest';
import { attemptBlock } from '../../src/claude/failure-report.js';
import type { DomainEvent } from '../../src/events/catalogue.js';
import { foldJob } from '../../src/machines/fold.js';
import { jobView } from '../../src/machines/job-context.js';
import { CLASS_GUIDANCE } from '../../src/refine/class-guidance.js';
import { happy, succeeded } from '../machines/decider/decider.js';
import { testRun } from '../support/scripted-effects.js';

// The refine request's account of an attempt's failure: the class's guidance first, then the first
// root cause in full, then the other failures still listed.

const failedCase = (id: string, message: string) => ({
  id,
  file: 'test/index.test.js',
  name: id.split(' > ').at(-1)!,
  status: 'failed' as const,
  durationMs: 1,
  message,
});

const request = (run: object) => {
  const events: DomainEvent[] = [...happy.testing(), succeeded('test', run, 1)];
  const job = foldJob(events.map(({ type, ...data }) => ({ type, data })));
  const view = jobView(job.context);
  return attemptBlock(view.attempts.at(-1)!, '', view.baseline?.failingTests ?? null);
};

describe('refine request: an attempt and its failure', () => {
  it('gives the class its guidance and puts the first root cause before the rest', () => {
    const text = request({
      ...testRun(false, []),
      cases: [
        failedCase('test/index.test.js > old', 'TypeError: x is not a function'),
        failedCase('test/index.test.js > adds', 'AssertionError: expected 3 to be 4'),
      ],
      loadErrors: [{ file: 'test/parse.test.js', message: "Error: Cannot find module './parse'" }],
      failingTests: ['test/index.test.js > old', 'test/index.test.js > adds'],
      newFailures: ['test/index.test.js > adds'],
      failureClass: 'missing-module',
    });
    const lines = text.split('\n');
    expect(lines[0]).toBe('<attempt n="1">');
    expect(lines[2]).toBe(
      'Kind of failure: missing-module. A module could not be found. Check the import path and file name against the repository, create the module if it should exist, and do not add a dependency the project does not already have.',
    );
    const start = lines.indexOf('Start with the first root cause; fix it before the others:');
    const rest = lines.indexOf(
      'The other 2 failures (they often share that cause; check each once it is fixed):',
    );
    expect(start).toBeGreaterThan(1);
    expect(lines[start + 1]).toBe('test/parse.test.js (did not load):');
    expect(rest).toBeGreaterThan(start);
    // The rest, the change's own failure before the old one.
    const after = lines.slice(rest + 1);
    expect(after.indexOf('test/index.test.js > adds:')).toBeGreaterThanOrEqual(0);
    expect(after.indexOf('test/index.test.js > adds:')).toBeLessThan(
      after.indexOf('test/index.test.js > old:'),
    );
  });

  it('a run from a log without classes reads as before: no kind, no root-cause heading for one failure', () => {
    const text = request({
      ...testRun(false, ['test/index.test.js > adds']),
      cases: [failedCase('test/index.test.js > adds', 'AssertionError: expected 3 to be 4')],
    });
    expect(text).not.toContain('Kind of failure');
    expect(text).not.toContain('Start with the first root cause');
    expect(text).toContain('test/index.test.js > adds:');
  });

  it('an attempt whose tests passed and a quality command held back says the tests passed', () => {
    const text = request({
      ...testRun(true),
      outputTail: '# pass 1',
      verdict: 'fail',
      passed: false,
      failureClass: 'unknown',
      quality: [
        {
          command: 'npm run lint',
          exitCode: 1,
          timedOut: false,
          durationMs: 3,
          findings: ['src/index.js: no-var'],
          outputTail: 'src/index.js:1:1 no-var',
          verdict: 'fail',
          reason: 'passed on the base commit and exited 1 after the change',
          newFindings: ['src/index.js: no-var'],
        },
      ],
    });
    const lines = text.split('\n');
    expect(lines).toContain(
      'Tests: passed, but a quality command blocks the change (below). Command: npm test; exit code 0.',
    );
    expect(text).not.toContain('Tests: failed');
    // The passing tests' output tells nothing: the quality command's findings and output do.
    expect(text).not.toContain('End of the test output');
    expect(lines).toContain(
      'Command: npm run lint: passed on the base commit and exited 1 after the change.',
    );
    expect(text).toContain('Findings the base commit did not have (fix each one):');
  });

  it('names each failing test once: the details name them, the lists of all of them say so, and a reason that only names them is left out', () => {
    const run = {
      ...testRun(false, ['test/index.test.js > adds', 'test/index.test.js > old']),
      newFailures: ['test/index.test.js > adds', 'test/index.test.js > old'],
      addedTestsFailing: ['test/index.test.js > adds'],
      reasons: [
        { code: 'changed-test-failed', level: 'fail', message: 'tests fail: adds', tests: [] },
        {
          code: 'timed-out',
          level: 'fail',
          message: 'the tests did not finish before the timeout',
          tests: [],
        },
      ],
    };
    const lines = request(run).split('\n');
    expect(lines).toContain('All failing tests: the 2 in the failure details below');
    expect(
      lines.filter((l) => l === 'test/index.test.js > adds:' || l === 'test/index.test.js > old:'),
    ).toHaveLength(2);
    expect(lines).toContain(
      'New failures compared to the baseline (these must pass): all of the failing tests',
    );
    expect(lines).toContain('Tests this job added or modified that did not pass: test/index.test.js > adds');
    expect(lines).toContain('Why it did not pass: the tests did not finish before the timeout');
    expect(lines.join('\n')).not.toContain('tests fail: adds');
    // A runner that gave no messages has no details: the list names the tests.
    const bare = request({ ...run, cases: run.cases.map((c) => ({ ...c, message: null })) }).split('\n');
    expect(bare).toContain('All failing tests: test/index.test.js > adds; test/index.test.js > old');
    expect(bare.join('\n')).not.toContain('Failure details');
  });

  it("leaves a class's guidance and the baseline's failures to the history when it says them", () => {
    const events: DomainEvent[] = [
      ...happy.testing(),
      succeeded('test', { ...testRun(false, ['test/index.test.js > adds']), failureClass: 'assertion' }, 1),
    ];
    const view = jobView(foldJob(events.map(({ type, ...data }) => ({ type, data }))).context);
    const attempt = view.attempts.at(-1)!;
    const whole = attemptBlock(attempt, '', []);
    const short = attemptBlock(attempt, '', [], { guidedAt: 1, baseline: true });
    expect(whole).toContain(`Kind of failure: assertion. ${CLASS_GUIDANCE.assertion}`);
    expect(whole).toContain('Already failing before booty changed anything (baseline): none');
    expect(short).toContain('Kind of failure: assertion. (Its guidance is with attempt 1.)');
    expect(short).not.toContain(CLASS_GUIDANCE.assertion);
    expect(short).not.toContain('Already failing before booty changed anything');
  });

  it('every class has one or two sentences of guidance', () => {
    for (const words of Object.values(CLASS_GUIDANCE)) {
      expect(words.split(/(?<=\.) /).length).toBeLessThanOrEqual(2);
    }
  });
});
