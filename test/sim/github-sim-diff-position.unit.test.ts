import { describe, expect, it } from 'vitest';
import { anchorIn, firstHunk } from '../../sim/github/github-sim-diff-position.js';

// Where a review comment sits in a file's diff, by GitHub's rules: `position` counts lines below
// the first hunk header (later headers count too); `line` is a line of the file on one side.

const DIFF = [
  'diff --git a/add.js b/add.js',
  'index 1111111..2222222 100644',
  '--- a/add.js',
  '+++ b/add.js',
  '@@ -1,3 +1,3 @@',
  ' // add',
  '-export const add = (a, b) => a - b;',
  '+export const add = (a, b) => a + b;',
  ' export const one = 1;',
  '@@ -10,2 +10,3 @@ export function more() {',
  ' const x = 1;',
  '+const y = 2;',
  ' return x;',
  '',
].join('\n');

describe('review comment anchors', () => {
  it.each([
    ['an added line, by its new line number', { line: 2 }, { line: 2, side: 'RIGHT', position: 3 }],
    [
      'a removed line, on the left',
      { line: 2, side: 'LEFT' as const },
      { line: 2, side: 'LEFT', position: 2 },
    ],
    ['a context line, by position', { position: 1 }, { line: 1, side: 'RIGHT', position: 1 }],
    [
      'a line of the second hunk, whose header counts',
      { line: 11 },
      { line: 11, side: 'RIGHT', position: 7 },
    ],
  ])('finds %s', (_, at, expected) => {
    expect(anchorIn(DIFF, at)).toMatchObject(expected);
  });

  it('cuts the diff hunk at the commented line, from its own hunk header', () => {
    expect(anchorIn(DIFF, { line: 11 })!.diffHunk).toBe(
      '@@ -10,2 +10,3 @@ export function more() {\n const x = 1;\n+const y = 2;',
    );
    expect(anchorIn(DIFF, { line: 2, side: 'LEFT' })!.diffHunk).toBe(
      '@@ -1,3 +1,3 @@\n // add\n-export const add = (a, b) => a - b;',
    );
  });

  it('finds nothing outside the diff, and no hunk in an empty diff', () => {
    expect(anchorIn(DIFF, { line: 5 })).toBeNull();
    expect(anchorIn(DIFF, { position: 9 })).toBeNull();
    expect(firstHunk('')).toBeNull();
    expect(firstHunk(DIFF)).toBe(DIFF.split('\n').slice(4, 9).join('\n'));
  });
});
