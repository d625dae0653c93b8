import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isForeignFrame } from '../../src/views/foreign-frame.js';
import { fenced, tail } from '../../src/views/markdown-format.js';
import { isTap, ownStack } from '../../src/views/test-failures.js';

// What booty writes into comments and PR bodies quotes test output: each piece of markdown is made in
// time linear in the text it quotes. Each rewritten reader answers as its former regex did on short
// random texts, and reads texts that kept the former ones busy for minutes at once.

const FAST = { timeout: 10_000 };
const KB = 1024;
const MB = KB * KB;

const textOf = (maxLength: number, ...units: string[]) =>
  fc.string({ unit: fc.constantFrom(...units), maxLength });

describe('stack frames in internals and dependencies', () => {
  /** The frame pattern as it was: quadratic in the `node_modules/` of a line. */
  const FOREIGN = String.raw`(?:node:|internal\/|[^()\s]*node_modules\/)`;
  const FORMER = new RegExp(
    String.raw`^\s*(?:at\s+(?:async\s+)?(?:[^()]*\()?(?:${FOREIGN}|<anonymous>)[^()]*\)?` +
      String.raw`|(?:async\s+)?(?:[^()\s]+ \()?${FOREIGN}[^()\s]*:\d+:\d+\)?)\s*$`,
  );
  const frame = textOf(
    14,
    'at',
    ' ',
    'async',
    '(',
    ')',
    'node:',
    'internal/',
    'node_modules/',
    '<anonymous>',
    'x',
    ':1',
    ':12',
    '\t',
    '/',
  );

  it('are the lines the former pattern named', () => {
    fc.assert(
      fc.property(frame, (line) => {
        expect(isForeignFrame(line)).toBe(FORMER.test(line));
      }),
      { numRuns: 20_000 },
    );
  });

  it.each([
    ['1 MB of node_modules/ before a (', `at l${'node_modules/e'.repeat(MB / 14)}(`, false],
    ['1 MB of node_modules/ in a TAP frame', `x (${'node_modules/e'.repeat(MB / 14)}:1:2) x`, false],
    ['a long dependency frame', `at f (/w/${'node_modules/a/'.repeat(MB / 15)}x.js:1:2)`, true],
  ])('reads %s at once', FAST, (_name, line, foreign) => {
    expect(isForeignFrame(line)).toBe(foreign);
  });

  it("keeps a failure's own frames of a 1 MB message, at once", FAST, () => {
    const message = `AssertionError: no\n    at t (/w/a.test.js:1:2)\n    at l${'node_modules/e'.repeat(MB / 14)}(\n    at node:internal/x:1:2`;
    expect(ownStack(message, 30, 60)).toBe(`AssertionError: no\n    at t (/w/a.test.js:1:2)\n    at lnode…`);
  });
});

describe('isTap', () => {
  const FORMER = /^TAP version \d+$|^\s*# Subtest: |^\s*(?:not )?ok \d+ - /m;
  it('finds TAP where the former pattern did', () => {
    fc.assert(
      fc.property(
        textOf(12, '\n', ' ', '\t', '\r', '\u2028', '# Subtest: ', 'ok 1 - ', 'not ', 'TAP version 13', 'x'),
        (text) => {
          expect(isTap(text)).toBe(FORMER.test(text));
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('reads 1 MB of blank lines at once', FAST, () => {
    expect(isTap(`${' \n'.repeat(MB / 2)}x`)).toBe(false);
    expect(isTap(`${' \n'.repeat(MB / 2)}  ok 1 - x`)).toBe(true);
  });
});

describe('markdown of test output', () => {
  it('fences and tails text as the former patterns cut it', () => {
    fc.assert(
      fc.property(textOf(20, '\n', ' ', '\t', 'a', '`', '``', '\u2028'), (text) => {
        const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
        const fence = '`'.repeat(longest + 1);
        expect(fenced(text)).toBe(`${fence}\n${text.replace(/\n+$/, '')}\n${fence}`);
        const lines = text.replace(/\s+$/, '').split('\n');
        let kept = lines.slice(-3).join('\n');
        if (kept.length > 8) kept = kept.slice(kept.length - 8);
        const cut = text.replace(/\s+$/, '').length - kept.length;
        expect(tail(text, 3, 8)).toBe(cut > 0 ? `… (${cut} earlier characters trimmed)\n${kept}` : kept);
      }),
      { numRuns: 5_000 },
    );
  });

  it.each([
    [
      'a 1 MB run of line breaks inside the text',
      `${'\n'.repeat(MB)}x\n`,
      `\`\`\`\n${'\n'.repeat(MB)}x\n\`\`\``,
    ],
    ['half a million backtick runs', '`a'.repeat(MB / 2), `\`\`\`\n${'`a'.repeat(MB / 2)}\n\`\`\``],
  ])('fences %s at once', FAST, (_name, text, expected) => {
    const out = fenced(text);
    expect(out.length).toBe(expected.length);
    expect(out === expected).toBe(true);
  });

  it('tails a 1 MB run of spaces inside the output at once', FAST, () => {
    expect(tail(`${' '.repeat(MB)}x\t\n`, 2, 10)).toBe(
      `… (${MB - 9} earlier characters trimmed)\n${' '.repeat(9)}x`,
    );
  });
});
