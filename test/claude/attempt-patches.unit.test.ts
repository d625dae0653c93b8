import { describe, expect, it } from 'vitest';
import { attemptPatches } from '../../src/claude/attempt-patches.js';
import { repeatedAttempt } from '../../src/claude/repeated-patch.js';
import { applyFileEdits } from '../../src/claude/search-replace.js';
import type { AttemptRecord } from '../../src/machines/job-context.js';
import { testRun } from '../support/scripted-effects.js';

// The pure parts of refining with history: each attempt's patch against the code before it, the
// check for code an earlier attempt already tested, and strict edits.

const tried = (
  n: number,
  proposed: Record<string, string | null>,
  rejected: string[] = [],
): AttemptRecord => ({
  n,
  explanation: `attempt ${n}`,
  proposed: Object.entries(proposed).map(([path, content]) => ({ path, content })),
  files: Object.keys(proposed).filter((p) => !rejected.includes(p)),
  rejected: rejected.map((path) => ({ path, rule: 'path-protected', reason: 'protected' })),
  addedTests: [],
  applied: true,
  test: { ...testRun(false, ['a test']), at: 1 },
});

const base = new Map<string, string | null>([
  ['src/a.js', 'one\ntwo\nthree\n'],
  ['src/b.js', 'bee\n'],
  ['.github/workflows/ci.yml', 'on: push\n'],
]);

describe('attempt patches', () => {
  it("each attempt's patch is against the code the attempts before it left, deletions and new files included; rejected paths are not in it", () => {
    const patches = attemptPatches(
      [
        tried(1, { 'src/a.js': 'one\n2\nthree\n', '.github/workflows/ci.yml': 'on: pull_request\n' }, [
          '.github/workflows/ci.yml',
        ]),
        tried(2, { 'src/a.js': 'one\n2\n3\n', 'src/b.js': null, 'src/c.js': 'sea\n' }),
      ],
      base,
    );
    expect(patches[0]).toEqual({
      text: '--- a/src/a.js\n+++ b/src/a.js\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n',
      cut: false,
    });
    expect(patches[1]!.text).toBe(
      [
        '--- a/src/a.js\n+++ b/src/a.js\n@@ -1,3 +1,3 @@\n one\n 2\n-three\n+3\n',
        '--- a/src/b.js\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-bee\n',
        '--- /dev/null\n+++ b/src/c.js\n@@ -0,0 +1,1 @@\n+sea\n',
      ].join(''),
    );
  });

  it('a patch over the size cap is cut, and says so', () => {
    const big = `${'x'.repeat(100)}\n`.repeat(200);
    const [patch] = attemptPatches([tried(1, { 'src/big.js': big })], base);
    expect(patch!.cut).toBe(true);
    expect(patch!.text).toMatch(/\n\[… \d+ more characters cut\]\n$/);
  });
});

describe('a repeated patch', () => {
  const attempts = [tried(1, { 'src/a.js': 'A1\n' }), tried(2, { 'src/b.js': 'B2\n' })];
  const current = [
    { path: 'src/a.js', content: 'A1\n' },
    { path: 'src/b.js', content: 'B2\n' },
  ];

  it('is one that leaves the code as an earlier tested attempt left it, a file put back to its base content counting as unchanged', () => {
    expect(
      repeatedAttempt({ attempts, current, proposal: [{ path: 'src/b.js', content: 'bee\n' }], base }),
    ).toBe(1);
    expect(
      repeatedAttempt({ attempts, current, proposal: [{ path: 'src/b.js', content: 'B2\n' }], base }),
    ).toBe(2);
  });

  it('is not one that makes code no attempt tested, nor one that matches an attempt that was never tested', () => {
    expect(
      repeatedAttempt({ attempts, current, proposal: [{ path: 'src/b.js', content: 'B3\n' }], base }),
    ).toBeNull();
    const untested = [{ ...attempts[0]!, test: null }, attempts[1]!];
    expect(
      repeatedAttempt({
        attempts: untested,
        current,
        proposal: [{ path: 'src/b.js', content: 'bee\n' }],
        base,
      }),
    ).toBeNull();
  });
});

describe('strict edits', () => {
  const edit = (search: string, replace: string, index = 0) => ({
    index,
    edit: { path: 'src/a.js', search, replace },
  });

  it('apply in order, each to the text the one before it left', () => {
    expect(
      applyFileEdits('src/a.js', 'one\ntwo\n', [edit('two', 'deux', 0), edit('deux\n', 'deux\ntrois\n', 1)]),
    ).toEqual({
      ok: true,
      content: 'one\ndeux\ntrois\n',
    });
  });

  it('name the file and the block that did not match, and a file that does not exist', () => {
    expect(applyFileEdits('src/a.js', 'one\none\n', [edit('one', '1', 3)])).toEqual({
      ok: false,
      problem:
        'edits[3] (edit 1 of 1 for src/a.js): its search text occurs more than once in src/a.js; copy the exact current lines and include enough of them to match exactly once',
    });
    expect(applyFileEdits('src/a.js', null, [edit('one', '1')])).toEqual({
      ok: false,
      problem:
        "edits[0] (edit 1 of 1 for src/a.js): src/a.js does not exist (or is not a text file); give a new file's complete content in changes instead",
    });
  });

  it('match a file with CRLF line endings, writing the replacement in them, and an edit finds the text an earlier one wrote', () => {
    const crlf = 'one\r\ntwo\r\nthree\r\n';
    expect(
      applyFileEdits('src/a.js', crlf, [
        edit('one\ntwo\n', 'one\ndeux\n', 0),
        edit('deux\nthree', 'deux\ntrois', 1),
      ]),
    ).toEqual({ ok: true, content: 'one\r\ndeux\r\ntrois\r\n' });
    // A search text that carries its own \r is taken exactly as given.
    expect(applyFileEdits('src/a.js', crlf, [edit('two\r\n', 'deux\r\n')])).toEqual({
      ok: true,
      content: 'one\r\ndeux\r\nthree\r\n',
    });
    // Still exactly once: the CRLF form of a text twice in the file is refused.
    expect(applyFileEdits('src/a.js', 'x\r\ny\r\nx\r\ny\r\n', [edit('x\ny', 'z')])).toMatchObject({
      ok: false,
      problem: expect.stringContaining('occurs more than once in src/a.js'),
    });
  });

  it('match a file that mixes LF and CRLF lines in the endings its lines have', () => {
    const mixed = 'a\r\nb\r\nc\nd\ne\r\n';
    // The LF part matches as written, and keeps LF.
    expect(applyFileEdits('src/a.js', mixed, [edit('c\nd\n', 'c\nD\n')])).toEqual({
      ok: true,
      content: 'a\r\nb\r\nc\nD\ne\r\n',
    });
    // The CRLF part matches in CRLF.
    expect(applyFileEdits('src/a.js', mixed, [edit('a\nb', 'A\nB')])).toEqual({
      ok: true,
      content: 'A\r\nB\r\nc\nd\ne\r\n',
    });
    // A text found once in each ending is found twice: still refused.
    expect(applyFileEdits('src/a.js', 'x\r\ny\r\nx\ny\n', [edit('x\ny', 'z')])).toMatchObject({
      ok: false,
      problem: expect.stringContaining('occurs more than once in src/a.js'),
    });
  });

  it('refuse any search text in an empty file, and keep LF files exact', () => {
    expect(applyFileEdits('src/a.js', '', [edit('one', '1')])).toEqual({
      ok: false,
      problem:
        'edits[0] (edit 1 of 1 for src/a.js): its search text occurs nowhere in src/a.js; copy the exact current lines',
    });
    expect(applyFileEdits('src/a.js', 'one\ntwo\n', [edit('one\r\ntwo', '1')])).toMatchObject({ ok: false });
  });
});
