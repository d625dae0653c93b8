import { describe, expect, it } from 'vitest';
import { fitRequest, selectRepoContext } from '../../src/claude/context-budget.js';
import { rankFiles } from '../../src/claude/file-relevance.js';
import { isBootyError } from '../../src/errors.js';
import { analysis } from './claude-fixtures.js';

const files = [
  'README.md',
  'docs/guide.md',
  'package-lock.json',
  'package.json',
  'src/calculator.js',
  'src/format.js',
  'src/logo.png',
  'src/util/strings.js',
  'test/calculator.test.js',
  'test/format.test.js',
];

describe('context budget', () => {
  it('ranks the analysis files first, then their tests and neighbours, issue words, manifests; never noise or missing files', () => {
    const ranked = rankFiles({
      files,
      analysis: { ...analysis, filesToRead: ['README.md', 'src/missing.js'] },
      issueText: 'the strings helper is slow',
    });
    expect(ranked).toEqual([
      'src/calculator.js',
      'README.md',
      'test/calculator.test.js',
      'package.json',
      'src/format.js',
      'test/format.test.js',
      'src/util/strings.js',
    ]);
  });

  it('selects files in relevance order within the budget, skipping one that does not fit', () => {
    const ranked = [
      { path: 'a.js', content: 'a'.repeat(300) },
      { path: 'big.js', content: 'b'.repeat(3000) },
      { path: 'c.js', content: 'c'.repeat(300) },
    ];
    const context = selectRepoContext({ tree: ['a.js', 'big.js', 'c.js'], ranked, budget: 400 });
    expect(context.files.map((f) => f.path)).toEqual(['a.js', 'c.js']);
    expect(context.tree).toEqual(['a.js', 'big.js', 'c.js']);
  });

  it('trims the step sections first, then files from the least relevant, and fails when nothing is left', async () => {
    const repoFiles = ['f1', 'f2'].map((path) => ({ path, content: 'x'.repeat(300) }));
    const sections = ['s1'.repeat(150), 's2'.repeat(150)];
    const rendered: string[] = [];
    const render = (keep: { repoFiles: number; sections: number }) => {
      rendered.push(`${keep.repoFiles}/${keep.sections}`);
      return {
        model: 'm',
        messages: [{ role: 'user' as const, content: `${keep.repoFiles}/${keep.sections}` }],
      };
    };
    // A counter that says each kept part costs 100 tokens over a base of 50.
    const counter = {
      count: async (r: any) => {
        const [f, s] = r.messages[0].content.split('/').map(Number);
        return { tokens: 50 + 100 * (f + s), exact: true };
      },
    };
    const fitted = await fitRequest({
      step: 'generate',
      maxInputTokens: 160,
      counter,
      render,
      repoFiles,
      sections,
    });
    expect(fitted.keep).toEqual({ repoFiles: 1, sections: 0 });
    expect(fitted.inputTokens).toBe(150);
    expect(rendered[0]).toBe('2/2');

    const err = await fitRequest({
      step: 'generate',
      maxInputTokens: 40,
      counter,
      render,
      repoFiles,
      sections,
    }).catch((e) => e);
    expect(isBootyError(err, 'BOOTY_E_CLAUDE_CONTEXT')).toBe(true);
    expect(err.params).toEqual({ step: 'generate', needed: 50, max: 40 });
  });
});
