import { describe, expect, it } from 'vitest';
import { parseJunit } from '../../../src/sandbox/reports/junit.js';
import { fixture, LAB, statuses } from './fixture.js';

// The JUnit XML of the runners booty asks for it (or writes it for, through its own reporters),
// each captured from a real run of the same small suite: a pass, a failure, a skip, a nested test.

describe('parseJunit: each runner’s JUnit, one id shape', () => {
  const table: [string, string, string, [string, string][]][] = [
    [
      'jasmine, through booty’s reporter (file, suite path, afterAll failures)',
      'jasmine/junit.xml',
      LAB.jasmine,
      [
        ['spec/broken.spec.js > Broken > runs', 'passed'],
        ['spec/broken.spec.js > Broken > (afterAll)', 'failed'],
        ['spec/calc.spec.js > Calc > fails', 'failed'],
        ['spec/calc.spec.js > Calc > nested > inner', 'passed'],
        ['spec/calc.spec.js > Calc > skipped', 'skipped'],
        ['spec/calc.spec.js > Calc > adds', 'passed'],
      ],
    ],
    [
      'bun test --reporter=junit (describe as classname)',
      'bun/junit.xml',
      LAB.bun,
      [
        ['test/b.test.js > b passes', 'passed'],
        ['test/a.test.js > adds', 'passed'],
        ['test/a.test.js > fails', 'failed'],
        ['test/a.test.js > skipped', 'skipped'],
        ['test/a.test.js > outer > inner', 'passed'],
      ],
    ],
    [
      'deno test --junit-path (a test with steps is their container)',
      'deno/junit.xml',
      LAB.deno,
      [
        ['a_test.js > adds', 'passed'],
        ['a_test.js > fails', 'failed'],
        ['a_test.js > skipped', 'skipped'],
        ['a_test.js > outer > inner', 'passed'],
        ['a_test.js > outer > inner bad', 'failed'],
        ['b_test.js > b passes', 'passed'],
      ],
    ],
    [
      'Playwright Test (PW_TEST_REPORTER=junit; titles joined by ›)',
      'playwright/junit.xml',
      LAB.playwright,
      [
        ['tests/a.spec.js > adds', 'passed'],
        ['tests/a.spec.js > fails', 'failed'],
        ['tests/a.spec.js > skipped', 'skipped'],
        ['tests/a.spec.js > outer > mid > inner', 'passed'],
        ['tests/b.spec.js > b passes', 'passed'],
      ],
    ],
    [
      'PHPUnit --log-junit (class, data sets)',
      'phpunit/junit.xml',
      LAB.phpunit,
      [
        ['tests/CalcTest.php > CalcTest > testAdds', 'passed'],
        ['tests/CalcTest.php > CalcTest > testFails', 'failed'],
        ['tests/CalcTest.php > CalcTest > testSkipped', 'skipped'],
        ['tests/CalcTest.php > CalcTest > testSums with data set "one"', 'passed'],
        ['tests/CalcTest.php > CalcTest > testSums with data set #0', 'passed'],
      ],
    ],
    [
      'minitest, through booty’s plugin (test classes and spec blocks)',
      'minitest/junit.xml',
      LAB.minitest,
      [
        ['test/calc_test.rb > CalcTest > test_fails', 'failed'],
        ['test/calc_test.rb > CalcTest > test_adds', 'passed'],
        ['test/calc_test.rb > CalcTest > test_errors', 'errored'],
        ['test/calc_test.rb > CalcTest > test_skipped', 'skipped'],
        ['test/calc_test.rb > Spec style > test_0001_works', 'passed'],
        ['test/rep_test.rb > RepTest > test_ok', 'passed'],
      ],
    ],
    [
      'ctest --output-junit (a disabled test did not run)',
      'ctest/junit.xml',
      LAB.ctest,
      [
        ['adds', 'passed'],
        ['fails', 'failed'],
        ['skipped', 'skipped'],
      ],
    ],
    [
      'Maven Surefire with JUnit 5 (a nested class lands in its own report)',
      'surefire/TEST-calc.CalcTest$Inner.xml',
      LAB.maven,
      [
        ['calc.CalcTest > errors', 'errored'],
        ['calc.CalcTest > adds', 'passed'],
        ['calc.CalcTest > fails', 'failed'],
        ['calc.CalcTest > skipped', 'skipped'],
        ['calc.CalcTest$Inner > nested', 'passed'],
      ],
    ],
  ];
  it.each(table)('%s', (_, file, cwd, expected) => {
    const { cases, loadErrors } = parseJunit(fixture(file), cwd);
    expect(statuses(cases)).toEqual(expected);
    expect(loadErrors).toEqual([]);
  });

  it('keeps the failure’s text, with character references decoded (bun writes line breaks as &#10;)', () => {
    const fails = parseJunit(fixture('bun/junit.xml'), LAB.bun).cases.find((c) => c.name === 'fails')!;
    expect(fails.message).toBe(
      'AssertionError: expect(received).toBe(expected)\n\nExpected: 3\nReceived: 2\n\n      at test/a.test.js:3:37',
    );
  });

  it('gives a minitest failure its message and the test’s own frame (minitest filters the rest)', () => {
    const fails = parseJunit(fixture('minitest/junit.xml'), LAB.minitest).cases.find(
      (c) => c.name === 'test_fails',
    )!;
    expect(fails.message).toContain("Expected: 3\n  Actual: 2\ntest/calc_test.rb:4:in `test_fails'");
  });

  it('takes a failing ctest test’s output as its message, its failure element being empty', () => {
    const fails = parseJunit(fixture('ctest/junit.xml'), LAB.ctest).cases.find((c) => c.name === 'fails')!;
    expect(fails.message).toBe('1+1 != 3');
  });

  it('reads Surefire’s report of a class whose tests all went elsewhere as empty', () => {
    expect(parseJunit(fixture('surefire/TEST-calc.CalcTest.xml'), LAB.maven).cases).toEqual([]);
  });

  it('keeps a deno test that failed with every step passing', () => {
    const xml = `<testsuites name="deno test"><testsuite name="./a_test.ts">
      <testcase name="outer" classname="./a_test.ts"><failure message="leak">leaked a timer</failure></testcase>
      <testcase name="outer &gt; step" classname="./a_test.ts"></testcase>
    </testsuite></testsuites>`;
    expect(statuses(parseJunit(xml, '/repo').cases)).toEqual([
      ['a_test.ts > outer', 'failed'],
      ['a_test.ts > outer > step', 'passed'],
    ]);
  });
});
