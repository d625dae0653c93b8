import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyText } from '../../src/refine/failure-class.js';

// The failure table reads test output: it must answer as its former regexes did, and at once on the
// texts where those regexes rescanned the rest of the output from every near match.

const FAST = { timeout: 10_000 };
const MB = 1024 * 1024;

/** The table as it was: exact, and quadratic (or worse) on the texts below. */
const FORMER: [string, RegExp][] = [
  // The sandbox said no: a write outside the workspace, or bubblewrap itself.
  ['policy', /\bbwrap: |\bEROFS\b|Read-only file system/],
  // A program or the network the tests need is not there. A refused connection to this machine is
  // left out: that is usually the change's own server not listening.
  ['environment', /command not found|(?:^|\n)\S*sh: (?:\d+: )?\S+: not found/],
  [
    'environment',
    /\b(?:ENOTFOUND|EAI_AGAIN|ENETUNREACH)\b|ECONNREFUSED(?! (?:127\.0\.0\.1|0\.0\.0\.0|::1|localhost))|Temporary failure in name resolution|Name or service not known|Network is unreachable|dial tcp: lookup/,
  ],
  // JS/TS
  ['import', /does not provide an export named|is not exported by|has no exported member/],
  ['missing-module', /Cannot find module|ERR_MODULE_NOT_FOUND|Cannot find package '/],
  ['syntax-or-compile', /\bSyntaxError\b|error TS\d+:/],
  [
    'assertion',
    /AssertionError|ERR_ASSERTION|\bexpected .+ to (?:be|equal|deeply|have|throw|include)|Expected:[\s\S]*Received:/,
  ],
  ['type-or-value', /\b(?:TypeError|ReferenceError|RangeError)\b/],
  // Python
  ['missing-module', /ModuleNotFoundError|No module named/],
  ['import', /ImportError/],
  ['syntax-or-compile', /IndentationError|TabError/],
  ['assertion', /(?:^|\n)E\s+assert /],
  ['type-or-value', /\b(?:ValueError|AttributeError|NameError|KeyError|IndexError)\b/],
  // Go
  [
    'missing-module',
    /cannot find package|no required module provides package|cannot find module providing package/,
  ],
  ['syntax-or-compile', /\bundefined: |syntax error:|\[build failed\]|\[setup failed\]/],
  ['assertion', /(?:^|\n)\s*--- FAIL/],
  // Rust
  ['missing-module', /error\[E0463\]|unresolved import `[\w-]+`\n[\s\S]*use of undeclared crate/],
  ['import', /error\[E0432\]|error\[E0433\]/],
  ['syntax-or-compile', /error\[E0\d+\]|could not compile/],
  ['assertion', /panicked at[\s\S]{0,400}assertion/],
];
const FORMER_ASSERTION =
  /AssertionError|ERR_ASSERTION|\bexpected .+ to (?:be|equal|deeply|have|throw|include)|Expected:[\s\S]*Received:|(?:^|\n)E\s+assert |panicked at[\s\S]{0,400}assertion/;

const failsFast = (cls: string) => cls === 'policy' || cls === 'environment';
function formerClassify(text: string): string | null {
  const asserted = FORMER_ASSERTION.test(text);
  for (const [cls, re] of FORMER) if (!(asserted && failsFast(cls)) && re.test(text)) return cls;
  return null;
}

/** Texts made only of the words these rows look for, so that they match, and nearly match, often. */
const words = fc.string({
  unit: fc.constantFrom(
    'expected ',
    'x',
    ' to be',
    '\n',
    ' ',
    '\t',
    'Expected:',
    'Received:',
    '--- FAIL',
    'E',
    ' assert ',
    'unresolved import `a`',
    'use of undeclared crate',
    'panicked at',
    'assertion',
    'command not found',
  ),
  maxLength: 25,
});

describe('classifyText', () => {
  it('answers as the former table did', () => {
    fc.assert(
      fc.property(words, (text) => {
        expect(classifyText(text)).toBe(formerClassify(text));
      }),
      { numRuns: 5_000 },
    );
  });

  it.each([
    ['1 MB of `expected` without `to be` on its line', `${'expected x '.repeat(MB / 11)}\n to be`, null],
    ['1 MB of `Expected:` without `Received:`', 'Expected:'.repeat(MB / 9), null],
    ['1 MB of blank lines before a go failure', `${'\n'.repeat(MB)}  --- FAIL: TestX`, 'assertion'],
    ['1 MB of blank lines without one', `\n${' \n'.repeat(MB / 2)}x`, null],
    ['1 MB of panics without an assertion near', 'panicked at'.repeat(MB / 11), null],
    ['1 MB of unresolved imports', 'unresolved import `e`\n'.repeat(MB / 22), null],
    [
      'a long assertion on one line, and a program not found',
      `AssertionError: expected '${'a'.repeat(MB)}' to equal 'b'\nsh: 1: vitest: not found`,
      'assertion',
    ],
  ])('reads %s at once', FAST, (_name, text, expected) => {
    expect(classifyText(text)).toBe(expected);
  });
});
