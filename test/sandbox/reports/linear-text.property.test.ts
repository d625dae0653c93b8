import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pytestNodeIdEnd } from '../../../src/sandbox/reports/pytest-node-id.js';
import { parseTextOutput } from '../../../src/sandbox/reports/text-fallback.js';

// What a test run printed, read when no report was written: every reader takes time linear in the
// output. Each rewritten reader answers as its former regex did on short random lines, and reads
// lines that made the former regexes run for minutes (or, for pytest's ids, for ever) at once.

const FAST = { timeout: 10_000 };
const KB = 1024;
const MB = KB * KB;
const CWD = '/w/jobs/j1';

const lineOf = (...units: string[]) => fc.string({ unit: fc.constantFrom(...units), maxLength: 24 });

/** pytest's node id as it was read: exponential in the `::` of a line. */
const NODE_ID = String.raw`\S+?\.py(?:::[^\s[]+)*(?:\[.*?\])?`;
const WORD = '(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)';

describe("pytest's node ids", () => {
  const pyLine = lineOf('a', '.py', '::', ':', '[', ']', ' ', ' PASSED', ' - ', '\u2028', 'x', '.');

  it('end where the former regex ended them, whatever follows', () => {
    const verbose = new RegExp(`^(${NODE_ID}) ${WORD}\\b`);
    const summary = new RegExp(`^(${NODE_ID})(?: - (.*))?$`);
    const spaced = new RegExp(`^(${NODE_ID})\\s*$`);
    fc.assert(
      fc.property(pyLine, (line) => {
        const v = verbose.exec(line);
        const verboseWord = new RegExp(` ${WORD}\\b`, 'y');
        const endV = pytestNodeIdEnd(line, 0, (at) => {
          verboseWord.lastIndex = at;
          return verboseWord.test(line);
        });
        expect(endV).toBe(v ? v[1]!.length : -1);

        const s = summary.exec(line);
        const reasonAt = (at: number) =>
          line.startsWith(' - ', at) && !/[\n\r\u2028\u2029]/.test(line.slice(at + 3));
        expect(pytestNodeIdEnd(line, 0, (at) => reasonAt(at) || at === line.length)).toBe(
          s ? s[1]!.length : -1,
        );

        const x = spaced.exec(line);
        const spaceFrom = line.trimEnd().length;
        expect(pytestNodeIdEnd(line, 0, (at) => at >= spaceFrom)).toBe(x ? x[1]!.length : -1);
      }),
      { numRuns: 5_000 },
    );
  });

  it.each([
    ['a path of 40 `::` parts', `tests/a.py${'::x'.repeat(40)} x`, []],
    ['a path of 40 `::` parts with a verdict', `tests/a.py${'::x'.repeat(40)} PASSED`, ['passed']],
    ['a 1 MB run of `.py::`', `${'a.py::'.repeat(MB / 6)} x`, []],
    ['a 1 MB parameter list left open', `FAILED a.py::t[${'[x '.repeat(MB / 3)}`, []],
    ['a summary naming one module 1 MB of times', 'ERROR a.py\n'.repeat(MB / 11), []],
  ])('reads %s at once', FAST, (_name, output, statuses) => {
    const { cases, loadErrors } = parseTextOutput(output, CWD);
    expect(cases.map((c) => c.status)).toEqual(statuses);
    if (output.startsWith('ERROR'))
      expect(loadErrors).toEqual([{ file: 'a.py', message: 'collection error' }]);
  });

  it('names a parametrised test after its last line, and its module from a collection header', FAST, () => {
    const output = [
      `FAILED tests/a.py::test_p[${'['.repeat(100 * KB)}] - boom`,
      `____ ERROR collecting tests/b.py ____`,
      'E   ImportError: nope',
      '==== short test summary info ====',
      ...Array.from({ length: 20_000 }, () => 'ERROR tests/b.py'),
    ].join('\n');
    const { cases, loadErrors } = parseTextOutput(output, CWD);
    expect(cases.map((c) => [c.name, c.status, c.message])).toEqual([['test_p', 'failed', 'boom']]);
    expect(loadErrors).toEqual([{ file: 'tests/b.py', message: 'E   ImportError: nope' }]);
  });
});
