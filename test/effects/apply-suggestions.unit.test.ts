import { describe, expect, it } from 'vitest';
import { planSuggestions } from '../../src/effects/apply-suggestions.js';
import type { SuggestionComment } from '../../src/forges/forge.js';
import { parseMention } from '../../src/forges/mention.js';

// Suggestion blocks applied as written, decided purely from the file texts at the head and where
// each comment was written: given these comments, then these files, applied and skipped.

const HEAD = 'h'.repeat(40);
const OLD = 'o'.repeat(40);
const file = 'one\ntwo\nthree\nfour\n';
const texts: Record<string, string> = { [`${HEAD}:a.js`]: file, [`${OLD}:a.js`]: 'one\nTWO\nthree\nfour\n' };
const read = (commit: string, path: string) => texts[`${commit}:${path}`] ?? null;

const at = (id: number, line: number | null, body: string, more: Partial<SuggestionComment> = {}) => ({
  id,
  author: 'ann',
  body,
  path: 'a.js',
  line,
  startLine: null,
  side: 'RIGHT' as const,
  commitId: HEAD,
  ...more,
});
const block = (text: string) => `\`\`\`suggestion\n${text}\`\`\``;

describe('planSuggestions', () => {
  it('applies blocks bottom first, a range and a deletion, keeping the final newline', () => {
    const plan = planSuggestions(
      [at(1, 1, block('ONE\n')), at(2, 4, block(''), { startLine: 3 })],
      HEAD,
      read,
    );
    expect(plan.changes).toEqual([{ path: 'a.js', content: 'ONE\ntwo\n' }]);
    expect(plan.applied.map((a) => [a.commentId, a.startLine, a.line])).toEqual([
      [1, 1, 1],
      [2, 3, 4],
    ]);
    expect(plan.skipped).toEqual([]);
  });

  it.each([
    ['outdated', at(1, null, block('x\n')), 'outdated'],
    ['on the old side', at(1, 1, block('x\n'), { side: 'LEFT' }), 'old side'],
    ['two blocks', at(1, 1, `${block('x\n')}\n${block('y\n')}`), 'more than one'],
    ['stale lines', at(1, 2, block('x\n'), { commitId: OLD }), 'stale'],
    ['past the end', at(1, 9, block('x\n')), 'stale'],
    ['a file gone', at(1, 1, block('x\n'), { path: 'gone.js' }), 'not on the branch'],
  ])('leaves a block %s, with why', (_, comment, why) => {
    const plan = planSuggestions([comment], HEAD, read);
    expect(plan.changes).toEqual([]);
    expect(plan.skipped).toEqual([
      expect.objectContaining({ commentId: 1, reason: expect.stringContaining(why) }),
    ]);
  });

  it('applies a block written on an older commit whose lines read the same, and leaves an overlapping one', () => {
    const plan = planSuggestions(
      [at(1, 3, block('3\n'), { commitId: OLD }), at(2, 4, block('x\n'), { startLine: 3 })],
      HEAD,
      read,
    );
    expect(plan.changes).toEqual([{ path: 'a.js', content: 'one\ntwo\n3\nfour\n' }]);
    expect(plan.skipped).toEqual([
      expect.objectContaining({ commentId: 2, reason: expect.stringContaining('overlaps') }),
    ]);
  });
});

describe('@booty apply suggestions', () => {
  it.each(['@booty apply suggestions', '@booty apply the suggestions.', '@booty Apply suggestion'])(
    '%s is the command',
    (body) => expect(parseMention(body)).toEqual({ command: 'apply' }),
  );
  it('apply with more words is a request', () =>
    expect(parseMention('@booty apply suggestions to the README too')).toEqual({
      request: '@booty apply suggestions to the README too',
    }));
});
