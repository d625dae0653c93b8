import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandRan } from '../../src/sandbox/baseline-health.js';
import { touchedTests } from '../../src/sandbox/changed-tests.js';
import { cleanOutput, settleLines, stripAnsi } from '../../src/sandbox/clean-output.js';
import { buildCodeChanged } from '../../src/sandbox/install-step.js';
import { parseFindings } from '../../src/sandbox/quality-findings.js';
import { countTestCases } from '../../src/workspace/test-files.js';

// Test output is written by the repository under test: every reader of it must take time linear in
// its length. Each reader is checked twice: against a reference (the former regex, exact but
// quadratic, on small inputs), and on inputs long enough that a quadratic reader would run for
// minutes, where the result is asserted, never the time. The short timeout turns a hang into a
// failure once the call returns.

const FAST = { timeout: 10_000 };
const KB = 1024;
const MB = KB * KB;

/** settleLines as it was: exactly the behaviour to keep, quadratic in the length of a line. */
const settleLinesByRegex = (text: string) => text.replace(/\r\n/g, '\n').replace(/[^\n]*\r(?!\n)/g, '');

/** Short strings over the characters that matter to line endings. */
const linesText = fc.string({ unit: fc.constantFrom('a', 'b', '\r', '\n', '\r\n', ' '), maxLength: 40 });

describe('settleLines', () => {
  it('keeps the former behaviour: CRLF as LF, and each line as its last draw', () => {
    fc.assert(
      fc.property(linesText, (text) => {
        expect(settleLines(text)).toBe(settleLinesByRegex(text));
      }),
      { numRuns: 5_000 },
    );
  });

  it('reads a 256 KB line without CR at once', FAST, () => {
    const line = 'x'.repeat(256 * KB);
    expect(settleLines(`${line}\nend\r\n`)).toBe(`${line}\nend\n`);
  });

  it('keeps the last draw of a 1 MB line of progress redrawn with CR', FAST, () => {
    const draws = Array.from({ length: 64 * KB }, (_, i) => `${i % 10}`.repeat(15)).join('\r');
    expect(settleLines(`${draws}\r\ndone\r\r\n`)).toBe(`${'5'.repeat(15)}\ndone\r\n`);
  });
});

describe('stripAnsi', () => {
  it.each([
    ['ESC [ without a final byte', '\u001b[;'.repeat(200 * KB), ';'.repeat(200 * KB)],
    ['OSC sequences left open', '\u001b]0;title'.repeat(100 * KB), ''],
    ['SGR remnants without their m', '[1;2;3;4'.repeat(100 * KB), '[1;2;3;4'.repeat(100 * KB)],
    ['escapes written out as text, unfinished', '\\x1b[1;2\n'.repeat(100 * KB), '[1;2\n'.repeat(100 * KB)],
  ])('reads %s in one pass', FAST, (_name, input, expected) => {
    expect(stripAnsi(input)).toBe(expected);
  });
});

describe('cleanOutput', () => {
  it('cleans one 1 MB line without CR, the workspace shown as .', FAST, () => {
    const line = `/w/jobs/j1/a.js ${'v'.repeat(KB * KB)}`;
    expect(cleanOutput(`${line}\n`, { workspace: '/w/jobs/j1' })).toBe(`./a.js ${'v'.repeat(KB * KB)}\n`);
  });
});

describe("the baseline's check for a program not found", () => {
  it('reads 1 MB of near misses at once', FAST, () => {
    const failed = { exitCode: 1, cases: [] };
    expect(commandRan({ ...failed, output: "Cannot find module 'u'r".repeat(MB / 22) })).toBe(true);
    expect(commandRan({ ...failed, output: `${'\n'.repeat(MB)}sh: 1: vitest: not found` })).toBe(false);
    expect(commandRan({ ...failed, output: `Cannot find module '/w/a.js'\n  requireStack: []` })).toBe(false);
  });
});

describe('the tests a change declares', () => {
  it('are read at once from a line of 256 KB of backslashes', FAST, () => {
    const after = `it('${'\\\\'.repeat(128 * KB)}x', () => {});\nit('y\\'', () => {});\n`;
    expect(
      touchedTests([{ path: 'test/a.test.js', before: null, after }]).map((t) => t.path.at(-1)?.length),
    ).toEqual([128 * KB + 1, 2]);
  });
});

describe("a quality command's findings", () => {
  const MAX_FINDINGS = 1_000;
  const MESSAGE_CHARS = 300;
  /** The findings as they were read: exponential in the slashes of a path. */
  const PATH = String.raw`(?:\.\/)?(?:[^\s:()]+\/)*[^\s:()/]*[^\s:()]\.[A-Za-z0-9]{1,8}|(?:\.\/)?[^\s:()]+\/[^\s:()]+`;
  const COLON = new RegExp(String.raw`^\s*(${PATH}):(\d+)(?::\d+)?:?\s+(\S.*)$`);
  const PARENS = new RegExp(String.raw`^\s*(${PATH})\((\d+),\d+\):\s*(\S.*)$`);
  const LONE_PATH = new RegExp(`^(${PATH})$`);
  const STYLISH = /^\s+\d+:\d+\s+((?:error|warning)\s+\S.*)$/;
  const RUST_MESSAGE = /^((?:error|warning)(?:\[\w+\])?: \S.*)$/;
  const RUST_WHERE = new RegExp(String.raw`^\s*--> (${PATH}):\d+:\d+$`);
  const PRETTIER = new RegExp(String.raw`^\[warn\] (${PATH})$`);

  /** Spaces collapsed and the decoration some tools draw after a finding (biome's ━━━) dropped. */
  const message = (text: string) =>
    text
      .replace(/[━─═]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, MESSAGE_CHARS);

  const file = (p: string) => p.replace(/^\.\//, '');

  /** Every finding in the output, in order (a finding twice is listed twice). */
  function formerFindings(output: string): string[] {
    const findings: string[] = [];
    let current: string | null = null;
    let rustMessage: string | null = null;
    for (const line of output.split('\n')) {
      if (findings.length >= MAX_FINDINGS) break;
      const stylish = current ? STYLISH.exec(line) : null;
      if (stylish) {
        findings.push(`${current}: ${message(stylish[1]!)}`);
        continue;
      }
      const where = rustMessage ? RUST_WHERE.exec(line) : null;
      if (where) {
        findings.push(`${file(where[1]!)}: ${message(rustMessage!)}`);
        rustMessage = null;
        continue;
      }
      rustMessage = RUST_MESSAGE.exec(line)?.[1] ?? null;
      const unformatted = PRETTIER.exec(line);
      if (unformatted) {
        findings.push(`${file(unformatted[1]!)}: not formatted`);
        continue;
      }
      const located = COLON.exec(line) ?? PARENS.exec(line);
      if (located) {
        findings.push(`${file(located[1]!)}: ${message(located[3]!)}`);
        current = null;
        continue;
      }
      const lone = LONE_PATH.exec(line.trim());
      if (lone) current = file(lone[1]!);
      else if (line.trim() === '') current = null;
    }
    return findings;
  }

  /** The findings in `after` that `before` does not hold, counting repeats (two where one was is one new). */

  const path = fc.string({
    unit: fc.constantFrom('a', '/', './', '.js', '.', ':', 'x', '(', ' '),
    maxLength: 8,
  });
  const line = fc
    .tuple(
      fc.constantFrom('', '  ', '[warn] ', '  --> ', 'error: '),
      path,
      fc.constantFrom('', ':12: bad', ':1:2: bad', '(1,2): bad', ':3:4', ' x', ':'),
    )
    .map((parts) => parts.join(''));
  const output = fc.array(fc.oneof(line, line, fc.constantFrom('  1:2  error  no', 'error[E1]: no', '')), {
    minLength: 1,
    maxLength: 5,
  });

  it('are those the former patterns found', () => {
    let found = 0;
    fc.assert(
      fc.property(output, (lines) => {
        const text = lines.join('\n');
        const findings = parseFindings(text);
        expect(findings).toEqual(formerFindings(text));
        found += findings.length;
      }),
      { numRuns: 5_000 },
    );
    // The generator makes findings often enough to compare them.
    expect(found).toBeGreaterThan(100);
  });

  it('are read at once from paths of 100,000 slashes', FAST, () => {
    const slashes = 'a/'.repeat(50_000);
    expect(parseFindings(`${slashes}x\n${slashes}x.ts:3: bad\n./${slashes}:x`)).toEqual([
      `${slashes}x.ts: bad`,
    ]);
  });
});

describe('files a change wrote, read line by line', () => {
  it('count Python tests as the former pattern did, and 1 MB of blank lines at once', FAST, () => {
    const FORMER = /^\s*(?:async\s+)?def\s+test\w*\s*\(/gm;
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom('\n', ' ', '\t', '\r', 'def test_a(', 'async ', 'x', '\u2028'),
          maxLength: 12,
        }),
        (text) => {
          expect(countTestCases('tests/test_a.py', text)).toBe(text.match(FORMER)?.length ?? 0);
        },
      ),
      { numRuns: 3_000 },
    );
    expect(countTestCases('tests/test_a.py', `${'\n'.repeat(MB)}x\ndef test_a():\n`)).toBe(1);
  });

  it("find a pyproject's build backend in the repository after 1 MB of blank lines at once", FAST, () => {
    const change = (content: string) => [{ path: 'pyproject.toml', content }];
    expect(buildCodeChanged(change(`${'\n \t'.repeat(MB / 3)}x`))).toBeNull();
    expect(buildCodeChanged(change(`${'\n \t'.repeat(MB / 3)}\n  backend-path = ["."]`))).toBe(
      'pyproject.toml',
    );
  });
});
