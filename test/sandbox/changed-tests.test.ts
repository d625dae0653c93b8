import { describe, expect, it } from 'vitest';
import { matchesTouched, touchedTests } from '../../src/sandbox/changed-tests.js';

// Which tests a change added or modified, by declaration: an old failing test that only shares a
// file with the change is not one of them.

const js = (tests: string[]) =>
  `import { describe, it } from 'node:test';\n\ndescribe('duration', () => {\n${tests.join('\n\n')}\n});\n`;
const jsTest = (title: string, body = 'assert.equal(1, 1);') =>
  `  it('${title}', () => {\n    ${body}\n  });`;

describe('touchedTests', () => {
  it('given a new test file, every test in it is the change’s', () => {
    const after = js([jsTest('parses 1h'), jsTest("parses \\'2m\\'")]);
    expect(touchedTests([{ path: 'test/parse.test.js', before: null, after }])).toEqual([
      { file: 'test/parse.test.js', name: 'parses 1h' },
      { file: 'test/parse.test.js', name: "parses '2m'" },
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
      { file: 'test/format.test.js', name: 'formats 0' },
    ]);
  });

  it('given an edit inside a test body, that test is the change’s', () => {
    const before = js([jsTest('adds'), jsTest('subtracts')]);
    const after = js([jsTest('adds', 'assert.equal(2, 2);'), jsTest('subtracts')]);
    expect(touchedTests([{ path: 'test/math.test.js', before, after }])).toEqual([
      { file: 'test/math.test.js', name: 'adds' },
    ]);
  });

  it('given lines removed from a test, that test is the change’s', () => {
    const before = js([jsTest('adds', 'assert.ok(1);\n    assert.ok(2);'), jsTest('subtracts')]);
    const after = js([jsTest('adds', 'assert.ok(1);'), jsTest('subtracts')]);
    expect(touchedTests([{ path: 'test/math.test.js', before, after }]).map((t) => t.name)).toEqual(['adds']);
  });

  it('reads pytest functions in classes, go Test functions and rust #[test] fns', () => {
    const py =
      'import pytest\n\nclass TestParse:\n    def test_old(self):\n        assert 1\n\n    def test_new(self):\n        assert 2\n';
    const pyBefore = 'import pytest\n\nclass TestParse:\n    def test_old(self):\n        assert 1\n';
    const go =
      'package calc\n\nfunc TestAdd(t *testing.T) {}\n\nfunc helper() {}\n\nfunc TestSub(t *testing.T) {\n\tt.Run("a b", nil)\n}\n';
    const goBefore =
      'package calc\n\nfunc TestAdd(t *testing.T) {}\n\nfunc helper() {}\n\nfunc TestSub(t *testing.T) {\n}\n';
    const rs =
      'pub fn add() {}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {}\n\n    #[test]\n    fn subs() { assert!(true); }\n}\n';
    const rsBefore =
      'pub fn add() {}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {}\n\n    #[test]\n    fn subs() {}\n}\n';
    expect(
      touchedTests([
        { path: 'tests/test_parse.py', before: pyBefore, after: py },
        { path: 'calc_test.go', before: goBefore, after: go },
        { path: 'src/lib.rs', before: rsBefore, after: rs },
        { path: 'src/util.py', before: null, after: 'def test_helper():\n    pass\n' },
      ]),
    ).toEqual([
      { file: 'tests/test_parse.py', name: 'test_new' },
      { file: 'calc_test.go', name: 'TestSub' },
      { file: 'src/lib.rs', name: 'subs' },
    ]);
  });

  it('ignores a deleted file and a trailing newline the base had', () => {
    const text = js([jsTest('adds')]);
    expect(touchedTests([{ path: 'test/a.test.js', before: text, after: text }])).toEqual([]);
    expect(touchedTests([{ path: 'test/a.test.js', before: text, after: null }])).toEqual([]);
  });
});

describe('matchesTouched', () => {
  const c = (file: string | null, name: string) => ({ file, name });
  it('matches by name within the same file, a go package dir, or a rust crate target', () => {
    expect(matchesTouched(c('test/a.test.js', 'adds'), { file: 'test/a.test.js', name: 'adds' })).toBe(true);
    expect(matchesTouched(c('test/b.test.js', 'adds'), { file: 'test/a.test.js', name: 'adds' })).toBe(false);
    expect(matchesTouched(c('calc', 'TestSub'), { file: 'calc/calc_test.go', name: 'TestSub' })).toBe(true);
    expect(matchesTouched(c('src/lib.rs', 'subs'), { file: 'src/ops.rs', name: 'subs' })).toBe(true);
    expect(matchesTouched(c('tests/it.rs', 'subs'), { file: 'src/ops.rs', name: 'subs' })).toBe(false);
    expect(matchesTouched(c(null, 'adds'), { file: 'test/a.test.js', name: 'adds' })).toBe(true);
  });
});
