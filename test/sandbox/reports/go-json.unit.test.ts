import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseGoJson } from '../../../src/sandbox/reports/go-json.js';
import { FIXTURES, fixture, LAB, statuses } from './fixture.js';

// go 1.19 `go test -json ./...` (stdout and stderr together, as booty captures them) over a module
// with subtests, a skip, a panic and a package that does not compile. The module's test files are
// kept beside it so the parser can find which file declares each test.
const cwd = path.join(FIXTURES, 'go/calc');
const output = fixture('go/test-json.txt').replaceAll(LAB.go, cwd);

describe('parseGoJson', () => {
  const result = parseGoJson(output, cwd);

  it('names each leaf `package > Test/sub`, and the file that declares its Test function', () => {
    expect(result.cases.map((c) => [c.id, c.status, c.file, c.name])).toEqual([
      ['example.com/calc > TestAdd', 'passed', 'calc_test.go', 'TestAdd'],
      ['example.com/calc > TestSub', 'failed', 'calc_test.go', 'TestSub'],
      ['example.com/calc > TestSkipped', 'skipped', 'calc_test.go', 'TestSkipped'],
      ['example.com/calc > TestTable/positive', 'passed', 'table_test.go', 'TestTable'],
      ['example.com/calc > TestTable/with_space', 'passed', 'table_test.go', 'TestTable'],
      ['example.com/calc > TestTable/negative', 'failed', 'table_test.go', 'TestTable'],
      ['example.com/calc > TestNested/outer/inner', 'passed', 'table_test.go', 'TestNested'],
      ['example.com/calc/sub > TestDivides', 'passed', 'sub/sub_test.go', 'TestDivides'],
      ['example.com/calc/sub > TestPanics', 'failed', 'sub/sub_test.go', 'TestPanics'],
    ]);
  });

  it("keeps what a failing test printed, and a panic's own frames only", () => {
    const sub = result.cases.find((c) => c.id === 'example.com/calc > TestSub')!;
    expect(sub.message).toBe('checking sub\n    calc_test.go:17: Sub(3, 1) = 4, want 2');
    const panic = result.cases.find((c) => c.name === 'TestPanics')!;
    expect(panic.message).toBe(
      [
        'panic: runtime error: integer divide by zero [recovered]',
        '\tpanic: runtime error: integer divide by zero',
        '',
        'goroutine 7 [running]:',
        'example.com/calc/sub.Div(...)',
        '\tsub/sub.go:3',
        'example.com/calc/sub.TestPanics(0xc000007860?)',
        '\tsub/sub_test.go:12 +0x12',
      ].join('\n'),
    );
  });

  it('reports the package that did not build, by directory, with the compiler’s message', () => {
    expect(result.loadErrors).toEqual([
      {
        file: 'broken',
        message:
          'broken/broken.go:3:28: cannot use "x" (untyped string constant) as int value in return statement',
      },
    ]);
  });

  it('rebuilds the readable output from the events', () => {
    expect(result.events).toBe(75);
    expect(result.text).toContain(
      '=== RUN   TestTable/negative\n    table_test.go:13: Add(-1, -1) = -2, want -3\n',
    );
    expect(result.text).toContain('FAIL\texample.com/calc/broken [build failed]\n');
    expect(result.text).not.toContain('{"Time"');
  });

  it('reads the build failure go 1.24 reports as events', () => {
    const lines = [
      {
        ImportPath: 'example.com/calc/broken [example.com/calc/broken.test]',
        Action: 'build-output',
        Output: '# example.com/calc/broken\n',
      },
      {
        ImportPath: 'example.com/calc/broken [example.com/calc/broken.test]',
        Action: 'build-output',
        Output: 'broken/broken.go:3:28: bad\n',
      },
      { ImportPath: 'example.com/calc/broken [example.com/calc/broken.test]', Action: 'build-fail' },
      { Action: 'start', Package: 'example.com/calc/broken' },
      {
        Action: 'output',
        Package: 'example.com/calc/broken',
        Output: 'FAIL\texample.com/calc/broken [build failed]\n',
      },
      {
        Action: 'fail',
        Package: 'example.com/calc/broken',
        Elapsed: 0,
        FailedBuild: 'example.com/calc/broken [example.com/calc/broken.test]',
      },
    ].map((e) => JSON.stringify(e));
    expect(parseGoJson(lines.join('\n'), cwd).loadErrors).toEqual([
      { file: 'broken', message: '# example.com/calc/broken\nbroken/broken.go:3:28: bad' },
    ]);
  });

  it('counts a parent that failed on its own while its subtests passed', () => {
    const e = (Action: string, Test: string) => JSON.stringify({ Action, Package: 'example.com/calc', Test });
    const lines = [
      e('run', 'TestTable'),
      e('run', 'TestTable/a'),
      e('pass', 'TestTable/a'),
      e('fail', 'TestTable'),
    ];
    expect(statuses(parseGoJson(lines.join('\n'), cwd).cases)).toEqual([
      ['example.com/calc > TestTable', 'failed'],
      ['example.com/calc > TestTable/a', 'passed'],
    ]);
  });
});
