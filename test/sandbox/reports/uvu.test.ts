import { describe, expect, it } from 'vitest';
import { totalsOf } from '../../../src/sandbox/reports/case-list.js';
import { parseUvu, uvuDir } from '../../../src/sandbox/reports/uvu.js';
import { fixture, LAB } from './fixture.js';

// uvu 0.5.6's CLI (`uvu test`) over test/math.js (two suites, a failure in each, a skipped test)
// and test/sub/ok.js (two passing tests), colours on as its CLI forces them.

describe('parseUvu', () => {
  const run = parseUvu(fixture('uvu/fail.txt'), LAB.uvu, 'test');

  it('makes one file-scope entry per file, with its counts, named from the directory uvu was given', () => {
    const files = run.cases.filter((c) => c.scope === 'file');
    expect(files.map((c) => [c.id, c.file, c.status, c.counts])).toEqual([
      ['test/math.js', 'test/math.js', 'failed', { passed: 2, failed: 2, skipped: 0 }],
      ['test/sub/ok.js', 'test/sub/ok.js', 'passed', { passed: 2, failed: 0, skipped: 0 }],
    ]);
    expect(files[0]!.message).toBe('failing: fails, bad "quoted" name');
  });

  it('names each failing test from its FAIL block, under its suite, with the block as its message', () => {
    const failed = run.cases.filter((c) => c.scope === undefined);
    expect(failed.map((c) => [c.id, c.name, c.status])).toEqual([
      ['test/math.js > fails', 'fails', 'failed'],
      ['test/math.js > Strings "q" > bad "quoted" name', 'bad "quoted" name', 'failed'],
    ]);
    expect(failed[0]!.message).toMatch(
      /^Expected values to be strictly equal: {2}\(is\)\n\n {8}\+\+3 {4}\(Expected\)/,
    );
    // The runner's own frames are dropped; the test's frame is kept, relative to the work tree.
    expect(failed[0]!.message).toContain('at Object.handler (test/math.js:4:30)');
    expect(failed[0]!.message).not.toContain('node_modules');
  });

  it('counts the tests of a file once, though its failures are also named', () => {
    // The skipped test is in the run's total only, and two files ran: it is no file's.
    expect(totalsOf(run.cases)).toEqual({ total: 6, passed: 4, failed: 2, errored: 0, skipped: 0 });
  });

  it('gives the run’s skipped tests to its file when one file ran', () => {
    const out = 'math.js\n• • (2 / 2)\n\n  Total:     2\n  Passed:    2\n  Skipped:   1\n  Duration:  1ms\n';
    expect(parseUvu(out, '/repo', 'test').cases.map((c) => c.counts)).toEqual([
      { passed: 2, failed: 0, skipped: 1 },
    ]);
  });

  it('reads the clsx run of the issue: npm’s header, then a file per line', () => {
    const output = [
      '',
      '> clsx@1.1.1 test',
      '> uvu -r esm test',
      '',
      'classnames.js',
      '• • • • • • • • • • • • • • •   (15 / 15)',
      '',
      'index.js',
      '• • • • • • • • • • • •   (12 / 12)',
      '',
      'lite.js',
      '• • • • •   (5 / 5)',
      '',
      '  Total:     32',
      '  Passed:    32',
      '  Skipped:   0',
      '  Duration:  2.31ms',
      '',
    ].join('\n');
    const parsed = parseUvu(output, '/repo', uvuDir(['-r', 'esm', 'test']));
    expect(parsed.cases.map((c) => [c.id, c.status, c.counts?.passed])).toEqual([
      ['test/classnames.js', 'passed', 15],
      ['test/index.js', 'passed', 12],
      ['test/lite.js', 'passed', 5],
    ]);
    expect(totalsOf(parsed.cases).passed).toBe(32);
  });

  it('sees nothing in output that is not uvu’s', () => {
    expect(parseUvu('ok 1 - a\nnot ok 2 - b\n# tests 2\n', '/repo', '.').cases).toEqual([]);
  });
});

describe('uvuDir', () => {
  it.each([
    [[], '.'],
    [['test'], 'test'],
    [['-r', 'esm', 'tests', '.*\\.test\\.js'], 'tests'],
    [['--ignore', 'fixtures', 'src/__tests__'], 'src/__tests__'],
    [['-C', 'packages/core', 'test'], 'packages/core/test'],
    [['--cwd=lib', '-b'], 'lib'],
  ])('%j → %s', (args, dir) => {
    expect(uvuDir(args)).toBe(dir);
  });
});
