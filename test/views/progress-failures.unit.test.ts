import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TestRun } from '../../src/events/effect-results.js';
import { cleanOutput } from '../../src/sandbox/clean-output.js';
import { totalsOf } from '../../src/sandbox/reports/case-list.js';
import { parseTap } from '../../src/sandbox/reports/tap.js';
import { judge } from '../../src/sandbox/test-verdict.js';
import { attemptResult, runFailure } from '../../src/views/attempt-report.js';
import { counts } from '../../src/views/test-evidence.js';
import { failuresOf, looksLikeFile, ownStack } from '../../src/views/test-failures.js';

// A run's failures as the comment and the PR body tell them: tests by name with their own stack
// frames, and files as files. The runs are read by booty's own TAP parser and verdict.

const CWD = '/w';

/** node:test before it flattened its TAP: each file a subtest named by its path, failing when its process did. */
const nestedTap = `TAP version 13
# Subtest: test/math.test.js
    # Subtest: adds
    not ok 1 - adds
      ---
      duration_ms: 1.2
      location: '/w/test/math.test.js:4:1'
      failureType: 'testCodeFailure'
      error: |-
        Expected values to be strictly equal:

        2 !== 3
      code: 'ERR_ASSERTION'
      stack: |-
        TestContext.<anonymous> (file:///w/test/math.test.js:5:10)
        Test.runInAsyncScope (node:async_hooks:206:9)
        Test.run (node:internal/test_runner/test:796:25)
        node:internal/test_runner/harness:255:12
      ...
    # Subtest: subtracts
    ok 2 - subtracts
      ---
      duration_ms: 0.3
      location: '/w/test/math.test.js:8:1'
      ...
    1..2
not ok 1 - test/math.test.js
  ---
  duration_ms: 61.5
  failureType: 'testCodeFailure'
  exitCode: 1
  error: 'test failed'
  code: 'ERR_TEST_FAILURE'
  ...
# Subtest: test/clock.test.js
    # Subtest: ticks
    ok 1 - ticks
      ---
      duration_ms: 0.4
      location: '/w/test/clock.test.js:3:1'
      ...
    1..1
not ok 2 - test/clock.test.js
  ---
  duration_ms: 70.1
  failureType: 'testCodeFailure'
  exitCode: 1
  error: 'test failed'
  code: 'ERR_TEST_FAILURE'
  ...
1..2
`;

function run(tap: string, exitCode: number): TestRun {
  const { cases, loadErrors } = parseTap(tap, CWD);
  const facts = { ran: true, exitCode, signal: null, timedOut: false, cases, loadErrors };
  return {
    ...facts,
    at: 1,
    command: 'npm test',
    durationMs: 120,
    outputTail: tap,
    source: 'text',
    totals: totalsOf(cases),
    broken: null,
    sandbox: 'bwrap',
    ...judge({ baseline: { cases: [], loadErrors: [] }, run: facts, touched: [] }),
    passed: false,
  };
}

describe('failures as a maintainer reads them', () => {
  it('never lists a file as a failing test: dropped beside its own tests, shown as a file alone', () => {
    const r = run(nestedTap, 1);
    // The parser's view, which the comment must not repeat: two "tests" named after files.
    expect(r.failingTests).toEqual([
      'test/clock.test.js',
      'test/math.test.js',
      'test/math.test.js > test/math.test.js > adds',
    ]);

    expect(failuresOf(r)).toEqual({
      tests: [
        {
          id: 'test/math.test.js > test/math.test.js > adds',
          failed: true,
          message:
            'Expected values to be strictly equal:\n\n2 !== 3\n    at TestContext.<anonymous> (test/math.test.js:5:10)',
        },
      ],
      files: [{ file: 'test/clock.test.js', message: null, didNotLoad: false }],
      alreadyFailing: 0,
    });
    expect(runFailure(r)).toBe(
      [
        '`test/math.test.js > adds`',
        '```\nExpected values to be strictly equal:\n\n2 !== 3\n    at TestContext.<anonymous> (test/math.test.js:5:10)\n```',
        'File `test/clock.test.js` failed outside its tests.',
      ].join('\n\n'),
    );
    expect(counts(r)).toBe('3 tests: 2 passed, 1 failed, 0 skipped');
    expect(attemptResult(r)).toBe('❌ 1 test failed (3 tests: 2 passed, 1 failed, 0 skipped) in 120 ms');
  });

  it('shows no raw TAP when no test said why it failed', () => {
    const bare = run(
      nestedTap.replace(/ {6}stack: \|-\n(?: {8}.*\n)+/, '').replace(/ {6}error: \|-\n(?: {8}.*\n|\n)+/, ''),
      1,
    );
    expect(failuresOf(bare).tests.map((t) => t.message)).toEqual([null]);
    const text = runFailure(bare);
    expect(text).not.toMatch(/TAP version|# Subtest|not ok|duration_ms/);
    expect(text).toContain('`test/math.test.js > adds`');
  });

  it('keeps the test’s own frames of a real node:test failure and drops node’s', () => {
    const out = cleanOutput(
      fs.readFileSync(new URL('./golden/node-test/attempt-1.out', import.meta.url), 'utf8'),
      { workspace: '/home/runner/work/tiny-durations' },
    );
    const failure = out.slice(out.indexOf('✖ parses milliseconds'), out.indexOf('✔ rejects what'));
    expect(ownStack(failure)).toBe(
      [
        '✖ parses milliseconds as milliseconds, not minutes (0.148721ms)',
        '  RangeError [Error]: not a duration: "250ms"',
        '      at parseDuration (src/duration.js:32:11)',
        '      at TestContext.<anonymous> (test/parse-duration.test.js:11:16)',
      ].join('\n'),
    );
  });

  it('drops the frames TAP writes without their `at`, and keeps message lines that only mention node', () => {
    const text = [
      'cannot read config (node:fs said ENOENT)',
      'TestContext.<anonymous> (file:///w/test/math.test.js:5:10)',
      'Test.runInAsyncScope (node:async_hooks:206:9)',
      'async Test.processPendingSubtests (node:internal/test_runner/test:526:7)',
      'node:internal/test_runner/harness:255:12',
      '    at new Promise (<anonymous>)',
      '    at load (/w/node_modules/loader/index.js:3:9)',
    ].join('\n');
    expect(ownStack(text)).toBe(
      'cannot read config (node:fs said ENOENT)\nTestContext.<anonymous> (file:///w/test/math.test.js:5:10)',
    );
  });

  it.each([
    ['test/foo.test.js', true],
    ['./test/foo.test.js', true],
    ['/home/runner/work/app/test/foo.test.js', true],
    ['foo.spec.ts', true],
    ['tests/test_parse.py', true],
    ['parses 1.5s', false],
    ['v1.2', false],
    ['index.js', false],
    ['tests/test_parse.py::test_ms', false],
  ])('%s is a file: %s', (name, file) => expect(looksLikeFile(name)).toBe(file));
});
