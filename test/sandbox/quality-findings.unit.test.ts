import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { newFindings, parseFindings } from '../../src/sandbox/quality-findings.js';

// Findings are what a linter or type checker reported at a file and line, without the line: the
// unit booty compares between the base commit and the change.

describe('parseFindings', () => {
  it.each([
    [
      'gcc, go vet, flake8 and ruff: path:line:col: message',
      './src/a.py:3:1: E302 expected 2 blank lines',
      'src/a.py: E302 expected 2 blank lines',
    ],
    ['a path without a column', 'main.go:12: unreachable code', 'main.go: unreachable code'],
    [
      'biome, with no colon after the column and its rule drawn with ━',
      'src/x.ts:3:5 lint/suspicious/noDebugger ━━━━━━━━',
      'src/x.ts: lint/suspicious/noDebugger',
    ],
    [
      "tsc's path(line,col): message",
      "src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.",
      "src/a.ts: error TS2322: Type 'string' is not assignable to type 'number'.",
    ],
    ['a folder and no extension', 'cmd/tool:4:2: shadowed variable', 'cmd/tool: shadowed variable'],
  ])('reads %s', (_, line, finding) => {
    expect(parseFindings(`${line}\n`)).toEqual([finding]);
  });

  it("reads eslint's stylish format: the file on its own line, then one line per finding", () => {
    const output = [
      '',
      './src/app.js',
      '   3:5   error    Unexpected console statement  no-console',
      '  10:1   warning  Missing semicolon             semi',
      '',
      '✖ 2 problems (1 error, 1 warning)',
    ].join('\n');
    expect(parseFindings(output)).toEqual([
      'src/app.js: error Unexpected console statement no-console',
      'src/app.js: warning Missing semicolon semi',
    ]);
  });

  it('reads what biome lint and tsc --noEmit really print (captured from biome 2 and TypeScript 5 on one file)', () => {
    const output = [
      'src/x.ts:1:1 lint/suspicious/noDebugger  FIXABLE  ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━',
      '',
      '  × This is an unexpected use of the debugger statement.',
      '  ',
      '  > 1 │ debugger;',
      '      │ ^^^^^^^^^',
      '    2 │ const a: number = "x";',
      '    3 │ export { a };',
      '  ',
      '  i Unsafe fix: Remove debugger statement',
      '  ',
      '    1 │ debugger;',
      '      │ ---------',
      '',
      'Checked 1 file in 3ms. No fixes applied.',
      'Found 1 error.',
      'lint ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━',
      '',
      '  × Some errors were emitted while running checks.',
      '  ',
      "src/x.ts(2,7): error TS2322: Type 'string' is not assignable to type 'number'.",
    ].join('\n');
    expect(parseFindings(output)).toEqual([
      'src/x.ts: lint/suspicious/noDebugger FIXABLE',
      "src/x.ts: error TS2322: Type 'string' is not assignable to type 'number'.",
    ]);
  });

  // Captured: `cargo clippy -- -D warnings` (clippy 0.1.95) and `prettier --check src` (prettier 3).
  const captured = (name: string) =>
    fs.readFileSync(new URL(`./fixtures/quality/${name}`, import.meta.url), 'utf8');

  it('reads rustc and clippy: the message, then where on the next line; the summary is no finding', () => {
    expect(parseFindings(captured('clippy.txt'))).toEqual([
      'src/main.rs: error: unused variable: `x`',
      'src/main.rs: error: length comparison to zero',
      'src/main.rs: error: useless use of `vec!`',
    ]);
    expect(parseFindings('error[E0308]: mismatched types\n --> src/main.rs:3:18\n')).toEqual([
      'src/main.rs: error[E0308]: mismatched types',
    ]);
  });

  it('reads prettier --check: each file it would reformat; its summary line is no file', () => {
    expect(parseFindings(captured('prettier-check.txt'))).toEqual(['src/a.ts: not formatted']);
  });

  it('drops the line number, so a finding moved by the change is the same finding', () => {
    expect(parseFindings('src/a.js:3:1: no-console')).toEqual(parseFindings('src/a.js:40:9: no-console'));
  });

  it('ignores what names no file and line: summaries, npm noise, stack frames, words with colons', () => {
    const output = [
      'Found 3 errors in 2 files.',
      'npm error code ELIFECYCLE',
      'Error: 3 problems',
      '    at Object.<anonymous> (/work/src/a.js:3:5)',
      'node:internal/modules/cjs/loader:1228',
      'Checked 12 files in 15ms. No fixes applied.',
      'lint failed: see above',
    ].join('\n');
    expect(parseFindings(output)).toEqual([]);
  });

  it('keeps a finding reported twice twice', () => {
    expect(parseFindings('a.js:1:1: no-var\na.js:2:1: no-var\n')).toEqual(['a.js: no-var', 'a.js: no-var']);
  });
});

describe('newFindings', () => {
  it('counts repeats: a second copy of a finding the base had once is new', () => {
    expect(newFindings(['a.js: no-var'], ['a.js: no-var', 'a.js: no-var', 'b.js: eqeqeq'])).toEqual([
      'a.js: no-var',
      'b.js: eqeqeq',
    ]);
  });

  it('finds nothing new when the change only fixed some of the base findings', () => {
    expect(newFindings(['a.js: no-var', 'b.js: eqeqeq'], ['b.js: eqeqeq'])).toEqual([]);
  });
});
