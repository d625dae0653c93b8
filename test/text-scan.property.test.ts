import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { followedBy, trimTrailing } from '../src/text-scan.js';

// Each scan stands for a regex that backtracks: on short random texts it answers as the regex does;
// on long ones (where the regex would run for minutes) it answers at once.

const FAST = { timeout: 10_000 };
const MB = 1024 * 1024;

const textOf = (...units: string[]) => fc.string({ unit: fc.constantFrom(...units), maxLength: 30 });

describe('followedBy', () => {
  it.each([
    [
      'expected .+ to be, on one line',
      followedBy(/\bexpected /, / to (?:be|equal)/, { gap: 1, sameLine: true }),
      /\bexpected .+ to (?:be|equal)/,
      textOf('expected ', 'x', ' to be', ' to equal', '\n', '\u2028', ' ', 'un'),
    ],
    [
      'Expected: then Received: anywhere after',
      followedBy(/Expected:/, /Received:/),
      /Expected:[\s\S]*Received:/,
      textOf('Expected:', 'Received:', 'Expected:Received:', 'x', '\n'),
    ],
    [
      'panicked at, then assertion within a bound',
      followedBy(/panicked at/, /assertion/, { within: 5 }),
      /panicked at[\s\S]{0,5}assertion/,
      textOf('panicked at', 'assertion', 'x', '\n', 'ab'),
    ],
    [
      'a quoted module, then its require stack within a bound',
      followedBy(/Cannot find module '[^']+'/, /requireStack: \[\]/, { within: 4 }),
      /Cannot find module '[^']+'[\s\S]{0,4}requireStack: \[\]/,
      textOf("Cannot find module '", "'", 'm', 'requireStack: []', ' '),
    ],
    [
      'an import line, then the crate anywhere after',
      followedBy(/unresolved import `[\w-]+`\n/, /use of undeclared crate/),
      /unresolved import `[\w-]+`\n[\s\S]*use of undeclared crate/,
      textOf('unresolved import `', 'a', '`', '\n', 'use of undeclared crate', ' '),
    ],
  ])('%s: as the regex', (_name, scan, regex, texts) => {
    fc.assert(
      fc.property(texts, (text) => {
        expect(scan.test(text)).toBe(regex.test(text));
      }),
      { numRuns: 3_000 },
    );
  });

  it('reads 1 MB of near misses at once', FAST, () => {
    const sameLine = followedBy(/\bexpected /, / to be/, { gap: 1, sameLine: true });
    expect(sameLine.test(`${'expected x '.repeat(MB / 11)}\n to be`)).toBe(false);
    expect(sameLine.test(`${'expected x '.repeat(MB / 11)} to be`)).toBe(true);
    const later = followedBy(/Expected:/, /Received:/);
    expect(later.test('Expected:'.repeat(MB / 9))).toBe(false);
    const bounded = followedBy(/panicked at/, /assertion/, { within: 400 });
    expect(bounded.test('panicked at'.repeat(MB / 11))).toBe(false);
    expect(bounded.test(`${'panicked at'.repeat(MB / 11)}assertion`)).toBe(true);
    const quoted = followedBy(/Cannot find module '[^']+'/, /requireStack: \[\]/, { within: 300 });
    expect(quoted.test("Cannot find module 'u'requireStack: ".repeat(MB / 36))).toBe(false);
  });
});

describe('trimTrailing', () => {
  it('cuts what /[ \\t]+$/ cuts', () => {
    fc.assert(
      fc.property(textOf(' ', '\t', 'a', '\n'), (text) => {
        expect(trimTrailing(text, ' \t')).toBe(text.replace(/[ \t]+$/, ''));
      }),
    );
  });

  it('reads a 1 MB run of spaces that does not end the text at once', FAST, () => {
    const text = `${' '.repeat(MB)}x  `;
    expect(trimTrailing(text, ' \t')).toBe(`${' '.repeat(MB)}x`);
  });
});
