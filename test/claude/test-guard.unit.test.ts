import { describe, expect, it } from 'vitest';
import { testViolations } from '../../src/claude/test-guard.js';

const before: Record<string, string> = {
  'test/a.test.js': "it('one', () => {});\nit('two', () => {});\n",
  'tests/test_b.py': 'def test_one():\n    pass\n',
};
const previous = async (p: string) => before[p] ?? null;
const check = (changes: { path: string; content: string }[], deletePaths: string[] = []) =>
  testViolations({ changes, deletePaths, addedTests: ['spec/added.js'], previous });

describe('test guard', () => {
  it('accepts edits that keep or add tests, and any change to code', async () => {
    expect(
      await check([
        { path: 'test/a.test.js', content: `${before['test/a.test.js']}it('three', () => {});\n` },
        { path: 'src/a.js', content: 'it.skip("not a test file")' },
        { path: 'test/new.test.js', content: "it.skip('x')" },
      ]),
    ).toEqual([]);
  });

  it('flags deleted test files, removed cases and new skip, only or todo markers', async () => {
    expect(
      await check(
        [
          { path: 'test/a.test.js', content: "it.only('one', () => {});\n" },
          { path: 'tests/test_b.py', content: '@pytest.mark.skip\ndef test_one():\n    pass\n' },
        ],
        ['spec/added.js', 'src/old.js'],
      ),
    ).toEqual([
      'spec/added.js: deletes a test file; fix the test or the code instead',
      'test/a.test.js: adds 1 skip/only/todo marker(s); tests must run, not be skipped',
      'test/a.test.js: removes 1 test case(s); keep every test and make it pass',
      'tests/test_b.py: adds 1 skip/only/todo marker(s); tests must run, not be skipped',
    ]);
  });
});
