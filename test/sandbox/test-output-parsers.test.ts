import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFailingTests } from '../../src/sandbox/test-output-parsers.js';

// Real outputs, captured from the tools themselves on small sample projects (colours and all),
// except jest.txt, which follows jest 29's printed format (jest is not installed here).

const fixture = (name: string) =>
  fs.readFileSync(path.join(import.meta.dirname, '../fixtures/test-output', name), 'utf8');

const nodeSample = '/tmp/samples/nt';

const table: { name: string; file: string; cwd?: string; failing: string[] }[] = [
  {
    name: 'vitest (with ANSI colours)',
    file: 'vitest.txt',
    failing: [
      'test/math.test.ts > math > nested > multiplies',
      'test/math.test.ts > math > subtracts',
      'test/other.test.ts > top level fails',
    ],
  },
  {
    name: 'jest, including a suite that failed to run',
    file: 'jest.txt',
    failing: [
      'test/broken.test.js',
      'test/math.test.js > math > nested > multiplies',
      'test/math.test.js > math > subtracts',
      'test/math.test.js > top level fails',
    ],
  },
  {
    name: 'node:test, TAP reporter (the default without a TTY on Node 20)',
    file: 'node-test-tap.txt',
    cwd: nodeSample,
    failing: [
      'test/math.test.js > math > nested > multiplies',
      'test/math.test.js > math > subtracts',
      'test/math.test.js > top level fails',
    ],
  },
  {
    name: 'node:test, spec reporter',
    file: 'node-test-spec.txt',
    cwd: nodeSample,
    failing: [
      'test/math.test.js > math > nested > multiplies',
      'test/math.test.js > math > subtracts',
      'test/math.test.js > top level fails',
    ],
  },
  {
    name: 'pytest: failures, a parametrised case and a fixture error',
    file: 'pytest.txt',
    failing: [
      'tests/test_math.py::TestNested::test_multiplies',
      'tests/test_math.py::test_param[2]',
      'tests/test_math.py::test_subtracts',
      'tests/test_math.py::test_uses_broken',
    ],
  },
  {
    name: 'pytest: a collection error',
    file: 'pytest-collection-error.txt',
    failing: ['tests/test_syntax.py'],
  },
  {
    name: 'go test: failures, a subtest, a panic and a build failure',
    file: 'go-test.txt',
    failing: [
      'example.com/calc > TestSub',
      'example.com/calc > TestTable/negative',
      'example.com/calc/broken [build failed]',
      'example.com/calc/sub > TestPanics',
    ],
  },
  {
    name: 'go test -v',
    file: 'go-test-v.txt',
    failing: [
      'example.com/calc > TestSub',
      'example.com/calc > TestTable/negative',
      'example.com/calc/broken [build failed]',
      'example.com/calc/sub > TestPanics',
    ],
  },
  { name: 'cargo test', file: 'cargo-test.txt', failing: ['tests::fails'] },
];

describe('parseFailingTests', () => {
  for (const row of table) {
    it(`names the failing tests in ${row.name}`, () => {
      expect(parseFailingTests(fixture(row.file), row.cwd)).toEqual(row.failing);
    });
  }

  it('gives the same ids for the same tests whichever node:test reporter printed them', () => {
    expect(parseFailingTests(fixture('node-test-tap.txt'), nodeSample)).toEqual(
      parseFailingTests(fixture('node-test-spec.txt'), nodeSample),
    );
  });

  it('finds nothing in a passing run or in plain text', () => {
    expect(parseFailingTests('ok 1 - adds\n1..1\n# pass 1\n# fail 0\n')).toEqual([]);
    expect(parseFailingTests('Test Suites: 1 passed, 1 total\nTests: 3 passed, 3 total\n')).toEqual([]);
    expect(parseFailingTests('Segmentation fault (core dumped)\n')).toEqual([]);
  });

  it('keeps the same ids when durations change between runs', () => {
    const a = fixture('node-test-spec.txt');
    const b = a.replace(/\(\d+\.\d+ms\)/g, '(99.5ms)');
    expect(parseFailingTests(b, nodeSample)).toEqual(parseFailingTests(a, nodeSample));
  });
});
