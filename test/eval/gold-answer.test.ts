import { describe, expect, it } from 'vitest';
import { applyFileEdits } from '../../src/claude/search-replace.js';
import { fileEdits } from '../../src/eval/gold-answer.js';

// The oracle says the gold patch as a model says a change: one search/replace edit per hunk, and
// the whole file as one edit where a hunk's text would match twice. booty's own applier must turn
// the edits back into exactly the patched file.

const apply = (before: string, edits: ReturnType<typeof fileEdits>) =>
  applyFileEdits(
    'f.py',
    before,
    edits.map((edit, index) => ({ index, edit })),
  );

const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join('');

describe('the gold patch as edits', () => {
  it('gives one edit per hunk, each back to the exact bytes', () => {
    const before = lines(40, (i) => `line ${i}\n`);
    const after = before.replace('line 3\n', 'line three\n').replace('line 30\n', 'line 30\nline 30.5\n');
    const edits = fileEdits('f.py', before, after);
    expect(edits).toHaveLength(2);
    expect(edits[0]!.search).toBe('line 0\nline 1\nline 2\nline 3\nline 4\nline 5\nline 6\n');
    expect(apply(before, edits)).toEqual({ ok: true, content: after });
  });

  it('falls back to the whole file when a hunk’s text occurs twice', () => {
    // Three lines of context either side of the change are the same in both copies of the block.
    const block = lines(9, (i) => `v${i} = ${i}\n`);
    const before = `${block}${lines(10, (i) => `a${i}\n`)}${block}`;
    const after = before.slice(0, -block.length) + block.replace('v4 = 4', 'v4 = 40');
    const edits = fileEdits('f.py', before, after);
    expect(edits).toEqual([{ path: 'f.py', search: before, replace: after }]);
    expect(apply(before, edits)).toEqual({ ok: true, content: after });
  });

  it('keeps a missing final newline as it is', () => {
    const before = 'a\nb\nc';
    const after = 'a\nB\nc';
    expect(apply(before, fileEdits('f.py', before, after))).toEqual({ ok: true, content: after });
  });
});
