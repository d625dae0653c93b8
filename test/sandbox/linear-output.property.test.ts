import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanOutput, settleLines, stripAnsi } from '../../src/sandbox/clean-output.js';

// Test output is written by the repository under test: every reader of it must take time linear in
// its length. Each reader is checked twice: against a reference (the former regex, exact but
// quadratic, on small inputs), and on inputs long enough that a quadratic reader would run for
// minutes, where the result is asserted, never the time. The short timeout turns a hang into a
// failure once the call returns.

const FAST = { timeout: 10_000 };
const KB = 1024;

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
