import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stripAnsi } from '../../../src/sandbox/reports/ansi.js';
import { failureMessage, MESSAGE_CAP, relativePaths } from '../../../src/sandbox/reports/case-message.js';
import { pytestNodeIdEnd } from '../../../src/sandbox/reports/pytest-node-id.js';
import { parseTextOutput } from '../../../src/sandbox/reports/text-fallback.js';
import { vitestFailHeader } from '../../../src/sandbox/reports/vitest-fail-line.js';
import { isSpace } from '../../../src/text-scan.js';

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

describe("vitest's failure headers", () => {
  /** The header as it was read: cubic in a long header's spaces. */
  const FORMER = /^\s*FAIL {2}(\S+\.\w+)(?:\s+>\s+(.+?))?(?:\s+\[ .+ \])?\s*$/;
  const header = lineOf(' ', '\t', '>', '[', ']', '[ ', ' ]', 'a', '.', 'b', '\u2028', '\n').chain((tail) =>
    fc.constantFrom(`FAIL  a.ts${tail}`, ` FAIL  x.b.c${tail}`, `FAIL  ${tail}`),
  );

  it('read the file and the title the former regex read', () => {
    fc.assert(
      fc.property(header, (line) => {
        const m = FORMER.exec(line);
        expect(vitestFailHeader(line)).toEqual(m ? { file: m[1], title: m[2] } : null);
      }),
      { numRuns: 10_000 },
    );
  });

  it.each([
    ['a title after 256 KB of spaces', `FAIL  a.test.ts > ${' '.repeat(256 * KB)}x`, 'x'],
    ['an open note', `FAIL  a.test.ts > t ${'[ '.repeat(128 * KB)}x`, `t ${'[ '.repeat(128 * KB)}x`],
    [
      'a 1 MB title before its note',
      `FAIL  a.test.ts > ${'s > '.repeat(MB / 4)}t [ note ]`,
      `${'s > '.repeat(MB / 4)}t`,
    ],
  ])('read %s at once', FAST, (_name, line, title) => {
    const read = vitestFailHeader(line);
    // Compared by length first: a failing comparison of megabyte strings would itself take minutes.
    expect(read?.title?.length).toBe(title.length);
    expect(read?.title === title).toBe(true);
  });

  it('a 256 KB run of spaces in a header, a duration and a suite path read at once', FAST, () => {
    const spaces = ' '.repeat(256 * KB);
    const output = [
      `✓ a.test.ts > suite > passes${spaces}x`,
      `✓ a.test.ts > suite > times${spaces}3 ms`,
      ` FAIL  a.test.ts > suite${spaces}x > fails`,
      'AssertionError: expected 1 to be 2',
    ].join('\n');
    const { cases } = parseTextOutput(output, CWD);
    expect(cases.map((c) => [c.id.length, c.status])).toEqual([
      [`a.test.ts > suite > passes${spaces}x`.length, 'passed'],
      ['a.test.ts > suite > times'.length, 'passed'],
      [`a.test.ts > suite${spaces}x > fails`.length, 'failed'],
    ]);
  });
});

describe('suites around a test', () => {
  it('20,000 suites left open name each of 20,000 tests in an id of bounded length, at once', FAST, () => {
    const output = `${'▶ s\n'.repeat(20_000)}${'  ✔ t (1ms)\n'.repeat(20_000)}`;
    const { cases } = parseTextOutput(output, CWD);
    expect(cases).toHaveLength(20_000);
    expect(cases[0]!.id).toBe(`${'s > '.repeat(250)}t`);
    expect(cases[0]).toMatchObject({ name: 't', status: 'passed' });
  });

  it("jest's tree of 400 suites of 1 KB each names its tests in ids of bounded length, at once", FAST, () => {
    const suites = Array.from({ length: 400 }, (_, i) => `${' '.repeat(i + 2)}${'d'.repeat(1_000)}`);
    const rows = Array.from({ length: 400 }, () => `${' '.repeat(402)}✓ passes (1 ms)`);
    const { cases } = parseTextOutput(['PASS a.test.js', ...suites, ...rows].join('\n'), CWD);
    expect(cases).toHaveLength(400);
    expect(cases[0]!.id).toBe(`a.test.js > ${'d'.repeat(1_000)} > passes`);
  });
});

describe('node:test spec rows', () => {
  it('with a line break inside are no rows, and 1 MB of them reads at once', FAST, () => {
    const row = `▶ .${' # SKIP▶'.repeat(MB / 8)}\u2028`;
    expect(parseTextOutput(`${row}\n✔ passes (1ms)\n`, CWD).cases.map((c) => [c.id, c.status])).toEqual([
      ['passes', 'passed'],
    ]);
  });
});

describe('failure messages', () => {
  /** failureMessage as it was, with its former frame patterns: quadratic in a frame's ` (`s. */
  const FRAME = /^\s*at (?:.*? \()?(.+?)\)?$/;
  const PYTHON_FOREIGN =
    /^(?:\S*\/(?:site-packages|dist-packages|lib\/python\d\.\d+)\/\S+|<frozen [^>]+>):\d+: in /;
  const foreign = (line: string) => {
    const where = FRAME.exec(line)?.[1];
    return (
      where !== undefined &&
      (where.startsWith('node:') ||
        where.startsWith('internal/') ||
        where.includes('node_modules/') ||
        where === '<anonymous>' ||
        /^index \d+$/.test(where))
    );
  };
  function formerMessage(text: string, cwd: string): string | null {
    const out: string[] = [];
    let inForeignPython = false;
    for (const line of stripAnsi(text).replace(/\r\n?/g, '\n').split('\n')) {
      if (PYTHON_FOREIGN.test(line)) {
        inForeignPython = true;
        continue;
      }
      if (inForeignPython && /^\s/.test(line)) continue;
      inForeignPython = false;
      if (!foreign(line)) out.push(line);
    }
    const body = relativePaths(out.join('\n'), cwd)
      .replace(/\n{3,}/g, '\n\n')
      .trim();
    if (!body) return null;
    return body.length > MESSAGE_CAP ? `${body.slice(0, MESSAGE_CAP - 1)}…` : body;
  }

  const message = fc.string({
    unit: fc.constantFrom(
      'at ',
      ' (',
      ')',
      'node:',
      'x',
      ' ',
      '\n',
      '\u2028',
      '/site-packages/',
      '/lib/python3.11/',
      'a.py',
      ':12:',
      ' in ',
      '<frozen os>',
      'node_modules/',
      '\t',
    ),
    maxLength: 20,
  });

  it('keep the lines the former patterns kept', () => {
    fc.assert(
      fc.property(message, (text) => {
        expect(failureMessage(text, CWD)).toBe(formerMessage(text, CWD));
      }),
      { numRuns: 10_000 },
    );
  });

  it('are cut from long texts as the former code cut them', () => {
    const line = fc.constantFrom(
      'AssertionError: expected 1 to be 2',
      '    at t (/w/jobs/j1/test/a.test.js:1:2)',
      '    at Test.run (node:internal/test_runner/test:1:2)',
      '/usr/lib/python3.11/site-packages/x.py:3: in f',
      '    x = 1',
      '',
      '   ',
      '\u001b[31mred\u001b[39m',
      'file:///w/jobs/j1/src/a.js:3',
    );
    let long = 0;
    fc.assert(
      fc.property(fc.array(line, { maxLength: 4_000, size: 'max' }), (lines) => {
        const text = lines.join('\n');
        expect(failureMessage(text, CWD)).toBe(formerMessage(text, CWD));
        if (text.length > 40_000) long++;
      }),
      { numRuns: 300 },
    );
    // Long enough, often enough, to be read in prefixes.
    expect(long).toBeGreaterThan(100);
  });

  it.each([
    ['a frame of 1 MB of ` (` ending in a line break', `at x${' (('.repeat(MB / 3)}\u2028)`],
    ['a path through 60,000 library folders', `${'/lib/python3.1/x'.repeat(60_000)}\tin f`],
  ])('read %s at once', FAST, (_name, text) => {
    expect(failureMessage(text, CWD)).toBe(`${text.slice(0, MESSAGE_CAP - 1)}…`);
  });
});

describe('go test -v text', () => {
  it('names only the leaves of 40,000 nested subtests, at once', FAST, () => {
    const names = ['TestA', 'TestA/sub', 'TestA/sub/x', 'TestAB', 'TestB/x', 'TestB'];
    const tree = Array.from({ length: 20_000 }, (_, i) => `TestD${i}/s`);
    const output = [
      ...[...names, ...tree, ...tree.map((t) => t.slice(0, -2))].map((n) => `--- FAIL: ${n} (0.00s)`),
      'FAIL\texample.com/m\t0.1s',
    ].join('\n');
    const { cases } = parseTextOutput(output, CWD);
    expect(cases).toHaveLength(3 + 20_000);
    expect(cases.slice(0, 3).map((c) => c.id)).toEqual([
      'example.com/m > TestA/sub/x',
      'example.com/m > TestAB',
      'example.com/m > TestB/x',
    ]);
  });
});

describe('isSpace', () => {
  it('is \\s, for every UTF-16 code unit', () => {
    for (let code = 0; code <= 0xffff; code++)
      expect(isSpace(code)).toBe(/\s/.test(String.fromCharCode(code)));
  });
});
