import { describe, expect, it } from 'vitest';
import type { TestCase } from '../../src/events/effect-results.js';
import { matchesTouched, type TouchedTest, touchedTests } from '../../src/sandbox/changed-tests.js';

// Which tests a change added or modified, by declaration and by its whole name: an old failing
// test that only shares a file with the change is not one of them, and neither is a test of the
// same name in another class, describe block or module.

const js = (tests: string[]) =>
  `import { describe, it } from 'node:test';\n\ndescribe('duration', () => {\n${tests.join('\n\n')}\n});\n`;
const jsTest = (title: string, body = 'assert.equal(1, 1);') =>
  `  it('${title}', () => {\n    ${body}\n  });`;

/** A case as a runner reports it: the id, and the file and name read from it. */
const reported = (id: string, file: string | null, name: string): Pick<TestCase, 'id' | 'file' | 'name'> => ({
  id,
  file,
  name,
});
const matching = (cases: Pick<TestCase, 'id' | 'file' | 'name'>[], t: TouchedTest) =>
  cases.filter((c) => matchesTouched(c, t)).map((c) => c.id);

describe('touchedTests', () => {
  it('given a new test file, every test in it is the change’s, named with its describe block', () => {
    const after = js([jsTest('parses 1h'), jsTest("parses \\'2m\\'")]);
    expect(touchedTests([{ path: 'test/parse.test.js', before: null, after }])).toEqual([
      { file: 'test/parse.test.js', path: ['duration', 'parses 1h'] },
      { file: 'test/parse.test.js', path: ['duration', "parses '2m'"] },
    ]);
  });

  it('given a test added beside an old failing one, only the new test is the change’s', () => {
    const before = js([jsTest('formats 90 min'), jsTest('already broken', 'assert.equal(1, 2);')]);
    const after = js([
      jsTest('formats 90 min'),
      jsTest('already broken', 'assert.equal(1, 2);'),
      jsTest('formats 0'),
    ]);
    expect(touchedTests([{ path: 'test/format.test.js', before, after }])).toEqual([
      { file: 'test/format.test.js', path: ['duration', 'formats 0'] },
    ]);
  });

  it('given an edit inside a test body, that test is the change’s', () => {
    const before = js([jsTest('adds'), jsTest('subtracts')]);
    const after = js([jsTest('adds', 'assert.equal(2, 2);'), jsTest('subtracts')]);
    expect(touchedTests([{ path: 'test/math.test.js', before, after }])).toEqual([
      { file: 'test/math.test.js', path: ['duration', 'adds'] },
    ]);
  });

  it('given lines removed from a test, that test is the change’s', () => {
    const before = js([jsTest('adds', 'assert.ok(1);\n    assert.ok(2);'), jsTest('subtracts')]);
    const after = js([jsTest('adds', 'assert.ok(1);'), jsTest('subtracts')]);
    expect(touchedTests([{ path: 'test/math.test.js', before, after }]).map((t) => t.path)).toEqual([
      ['duration', 'adds'],
    ]);
  });

  it('given a method added to one pytest class, names that class’s method alone, though four others share its name', () => {
    // more-itertools: the fix added InterleaveEvenlyTests::test_no_iterables.
    const cls = (name: string, extra = '') =>
      `class ${name}(TestCase):\n    def test_basic(self):\n        self.assertTrue(True)\n\n    def test_no_iterables(self):\n        self.assertEqual([], [])\n${extra}`;
    const before = [
      'from unittest import TestCase\n',
      cls('InterleaveLongestTests'),
      'class InterleaveEvenlyTests(TestCase):\n    def test_equal_lengths(self):\n        """def test_in_a_docstring(self): is no test."""\n        self.assertTrue(True)\n',
      cls('ZipEqualTests'),
    ].join('\n');
    const after = before.replace(
      '        self.assertTrue(True)\n\nclass ZipEqualTests',
      '        self.assertTrue(True)\n\n    def test_no_iterables(self):\n        self.assertEqual(list(interleave_evenly([])), [])\n\nclass ZipEqualTests',
    );
    const touched = touchedTests([{ path: 'tests/test_more.py', before, after }]);
    expect(touched).toEqual([
      { file: 'tests/test_more.py', path: ['InterleaveEvenlyTests', 'test_no_iterables'] },
    ]);
    const cases = [
      'InterleaveLongestTests',
      'InterleaveEvenlyTests',
      'ZipEqualTests',
      'ChunkedTests',
      'SieveTests',
    ].map((c) =>
      reported(`tests/test_more.py::${c}::test_no_iterables`, 'tests/test_more.py', 'test_no_iterables'),
    );
    expect(matching(cases, touched[0]!)).toEqual([
      'tests/test_more.py::InterleaveEvenlyTests::test_no_iterables',
    ]);
  });

  it('given an edit to a decorated pytest function, its parameters count as its lines', () => {
    const before =
      'import pytest\n\n\ndef test_a():\n    assert 1\n\n\n@pytest.mark.parametrize("x", [1, 2])\ndef test_b(x):\n    assert x\n';
    const after = before.replace('[1, 2]', '[1, 2, 3]');
    expect(touchedTests([{ path: 'tests/test_x.py', before, after }])).toEqual([
      { file: 'tests/test_x.py', path: ['test_b'] },
    ]);
  });

  it('given two edited ava tests in a root test.js, names each by its title', () => {
    // camelcase: the fix edited two ava tests in test.js, and booty named none.
    const test = (title: string, lines: string[]) =>
      `test('${title}', t => {\n${lines.map((l) => `\tt.is(${l});`).join('\n')}\n});\n`;
    const before = [
      "import test from 'ava';\nimport camelCase from './index.js';\n",
      test('camelCase', ["camelCase('foo'), 'foo'", "camelCase('foo-bar'), 'fooBar'"]),
      test('camelCase with pascalCase option', ["camelCase('foo', {pascalCase: true}), 'Foo'"]),
      test('invalid input', ["typeof camelCase, 'function'"]),
    ].join('\n');
    const after = before
      .replace(
        "\tt.is(camelCase('foo-bar'), 'fooBar');",
        "\tt.is(camelCase('foo-bar'), 'fooBar');\n\tt.is(camelCase('Ölçü'), 'ölçü');",
      )
      .replace("'Foo');", "'Foo');\n\tt.is(camelCase('ölçü', {pascalCase: true}), 'Ölçü');");
    const touched = touchedTests([{ path: 'test.js', before, after }]);
    expect(touched).toEqual([
      { file: 'test.js', path: ['camelCase'] },
      { file: 'test.js', path: ['camelCase with pascalCase option'] },
    ]);
    // ava over TAP names a test by its title alone; a reporter may put the file first.
    const cases = [
      reported('camelCase', null, 'camelCase'),
      reported('test.js > camelCase with pascalCase option', 'test.js', 'camelCase with pascalCase option'),
      reported('invalid input', null, 'invalid input'),
    ];
    expect(touched.map((t) => matching(cases, t))).toEqual([
      ['camelCase'],
      ['test.js > camelCase with pascalCase option'],
    ]);
  });

  it('given a file the runner named tests in, it is a test file wherever it sits', () => {
    const before =
      "const test = require('tape');\n\ntest('adds', (t) => {\n  t.equal(1, 1);\n  t.end();\n});\n";
    const after = before.replace('t.equal(1, 1);', 't.equal(2, 2);');
    expect(touchedTests([{ path: 'spec/math.js', before, after }])).toEqual([]);
    expect(touchedTests([{ path: 'spec/math.js', before, after }], new Set(['spec/math.js']))).toEqual([
      { file: 'spec/math.js', path: ['adds'] },
    ]);
  });

  it('given nested describe blocks, an edited test is named by every block around it', () => {
    const text = (body: string) =>
      `describe('parser', () => {\n  describe('units', () => {\n    it('reads hours', () => {\n      ${body}\n    });\n  });\n  describe('errors', () => {\n    it('reads hours', () => {\n      expect(1).toBe(1);\n    });\n  });\n  it(\`handles {braces} and \${'x'}\`, () => {});\n  const re = /[)}]/;\n});\n`;
    const before = text('expect(parse("1h")).toBe(3600);');
    const after = text('expect(parse("2h")).toBe(7200);');
    const touched = touchedTests([{ path: 'test/parse.test.ts', before, after }]);
    expect(touched).toEqual([{ file: 'test/parse.test.ts', path: ['parser', 'units', 'reads hours'] }]);
    const cases = [
      reported('test/parse.test.ts > parser > units > reads hours', 'test/parse.test.ts', 'reads hours'),
      reported('test/parse.test.ts > parser > errors > reads hours', 'test/parse.test.ts', 'reads hours'),
    ];
    expect(matching(cases, touched[0]!)).toEqual(['test/parse.test.ts > parser > units > reads hours']);
  });

  it('given an edited tape test with subtests, an edit inside one subtest names that subtest', () => {
    const before =
      "const test = require('tape');\n\ntest('math', (t) => {\n  t.test('adds', (st) => {\n    st.equal(1 + 1, 2);\n    st.end();\n  });\n  t.test('subtracts', (st) => {\n    st.equal(1 - 1, 0);\n    st.end();\n  });\n  t.end();\n});\n";
    const after = before.replace('st.equal(1 - 1, 0);', 'st.equal(2 - 1, 1);');
    const touched = touchedTests([{ path: 'test/math.js', before, after }]);
    expect(touched).toEqual([{ file: 'test/math.js', path: ['math', 'subtracts'] }]);
    const cases = [reported('math > adds', null, 'adds'), reported('math > subtracts', null, 'subtracts')];
    expect(matching(cases, touched[0]!)).toEqual(['math > subtracts']);
  });

  it('given an edited jest each table test, its title matches every row of the table', () => {
    const before =
      "describe('sum', () => {\n  it.each([[1, 2, 3]])('adds %i and %i', (a, b, c) => {\n    expect(a + b).toBe(c);\n  });\n  it('zero', () => {});\n});\n";
    const after = before.replace('[[1, 2, 3]]', '[[1, 2, 3], [2, 2, 4]]');
    const touched = touchedTests([{ path: 'test/sum.test.js', before, after }]);
    expect(touched.map((t) => t.path.map((p) => p.replaceAll('\u0000', '*')))).toEqual([
      ['sum', 'adds * and *'],
    ]);
    const cases = [
      reported('test/sum.test.js > sum > adds 1 and 2', 'test/sum.test.js', 'adds 1 and 2'),
      reported('test/sum.test.js > sum > adds 2 and 2', 'test/sum.test.js', 'adds 2 and 2'),
      reported('test/sum.test.js > sum > zero', 'test/sum.test.js', 'zero'),
    ];
    expect(matching(cases, touched[0]!)).toEqual([
      'test/sum.test.js > sum > adds 1 and 2',
      'test/sum.test.js > sum > adds 2 and 2',
    ]);
  });

  it('given an edit inside one go subtest, names that subtest; an edit around them names the test', () => {
    const before =
      'package calc\n\nimport "testing"\n\nfunc TestSub(t *testing.T) {\n\tt.Run("a b", func(t *testing.T) {\n\t\tcheck(t, 1)\n\t})\n\tt.Run("c", func(t *testing.T) {\n\t\tcheck(t, 2)\n\t})\n}\n\nfunc TestAdd(t *testing.T) {\n\tcheck(t, 3)\n}\n';
    const inSub = before.replace('check(t, 1)', 'check(t, 10)');
    const around = before.replace(
      'func TestSub(t *testing.T) {\n',
      'func TestSub(t *testing.T) {\n\tt.Parallel()\n',
    );
    const one = touchedTests([{ path: 'calc/calc_test.go', before, after: inSub }]);
    expect(one).toEqual([{ file: 'calc/calc_test.go', path: ['TestSub', 'a b'] }]);
    const whole = touchedTests([{ path: 'calc/calc_test.go', before, after: around }]);
    expect(whole).toEqual([{ file: 'calc/calc_test.go', path: ['TestSub'] }]);
    const cases = [
      reported('example.com/calc > TestSub/a_b', 'calc', 'TestSub'),
      reported('example.com/calc > TestSub/c', 'calc', 'TestSub'),
      reported('example.com/calc > TestAdd', 'calc', 'TestAdd'),
    ];
    expect(matching(cases, one[0]!)).toEqual(['example.com/calc > TestSub/a_b']);
    expect(matching(cases, whole[0]!)).toEqual([
      'example.com/calc > TestSub/a_b',
      'example.com/calc > TestSub/c',
    ]);
  });

  it('given a rust test edited in one module, names it by its module path, not the same fn elsewhere', () => {
    const module = (body: string) =>
      `pub fn add() {}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        ${body}\n    }\n\n    #[test]\n    fn subs() { assert!(true); }\n}\n`;
    const before = module('assert_eq!(1, 1);');
    const after = module('assert_eq!(2, 2); // "}" and \'}\' are no braces');
    const touched = touchedTests([{ path: 'src/ops.rs', before, after }]);
    expect(touched).toEqual([{ file: 'src/ops.rs', path: ['ops', 'tests', 'adds'] }]);
    const cases = [
      reported('src/lib.rs > ops::tests::adds', 'src/ops.rs', 'adds'),
      reported('src/lib.rs > units::tests::adds', 'src/units.rs', 'adds'),
      reported('src/lib.rs > tests::adds', 'src/lib.rs', 'adds'),
      reported('tests/it.rs > adds', 'tests/it.rs', 'adds'),
    ];
    expect(matching(cases, touched[0]!)).toEqual(['src/lib.rs > ops::tests::adds']);
  });

  it('leaves out what is no test: a non-test file, a deleted file, an unchanged one', () => {
    const text = js([jsTest('adds')]);
    expect(touchedTests([{ path: 'test/a.test.js', before: text, after: text }])).toEqual([]);
    expect(touchedTests([{ path: 'test/a.test.js', before: text, after: null }])).toEqual([]);
    expect(
      touchedTests([{ path: 'src/util.py', before: null, after: 'def test_helper():\n    pass\n' }]),
    ).toEqual([]);
  });
});

describe('matchesTouched', () => {
  it('matches the same path in the same file, a go package dir, or a rust crate target', () => {
    const adds: TouchedTest = { file: 'test/a.test.js', path: ['adds'] };
    expect(matchesTouched(reported('test/a.test.js > adds', 'test/a.test.js', 'adds'), adds)).toBe(true);
    expect(matchesTouched(reported('test/b.test.js > adds', 'test/b.test.js', 'adds'), adds)).toBe(false);
    expect(matchesTouched(reported('adds', null, 'adds'), adds)).toBe(true);
    expect(matchesTouched(reported('test/a.test.js > adds #2', 'test/a.test.js', 'adds'), adds)).toBe(true);
    expect(
      matchesTouched(reported('example.com/calc > TestSub', 'calc', 'TestSub'), {
        file: 'calc/calc_test.go',
        path: ['TestSub'],
      }),
    ).toBe(true);
    const subs: TouchedTest = { file: 'src/ops.rs', path: ['ops', 'subs'] };
    expect(matchesTouched(reported('src/lib.rs > ops::subs', 'src/lib.rs', 'subs'), subs)).toBe(true);
    expect(matchesTouched(reported('tests/it.rs > subs', 'tests/it.rs', 'subs'), subs)).toBe(false);
  });

  it('never matches a bare name under another scope', () => {
    const top: TouchedTest = { file: 'test/a.test.js', path: ['adds'] };
    expect(matchesTouched(reported('test/a.test.js > math > adds', 'test/a.test.js', 'adds'), top)).toBe(
      false,
    );
    const method: TouchedTest = { file: 'tests/test_a.py', path: ['TestA', 'test_x'] };
    expect(matchesTouched(reported('tests/test_a.py::test_x', 'tests/test_a.py', 'test_x'), method)).toBe(
      false,
    );
    expect(
      matchesTouched(reported('tests/test_a.py::TestA::test_x[1]', 'tests/test_a.py', 'test_x'), method),
    ).toBe(true);
  });

  it('an entry for a whole file is every test declared in it', () => {
    const entry = { ...reported('test/lite.js', 'test/lite.js', 'test/lite.js'), scope: 'file' as const };
    expect(matchesTouched(entry, { file: 'test/lite.js', path: ['strings'] })).toBe(true);
    expect(matchesTouched(entry, { file: 'test/index.js', path: ['strings'] })).toBe(false);
  });
});
