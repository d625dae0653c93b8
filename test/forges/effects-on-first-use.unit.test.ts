import { describe, expect, it } from 'vitest';
import { effectsOnFirstUse } from '../../src/forges/effects-on-first-use.js';
import type { ForgeEffects } from '../../src/forges/forge.js';

// A forge's effects stand in for the real ones until the first call loads them: the same answers,
// one load, and a failed load tried again.

const repo = { forge: 'github' as const, owner: 'o', name: 'r' };

function effects(): ForgeEffects {
  return {
    getIssue: async (r: { owner: string; name: string }, n: number) => ({
      title: `${r.owner}/${r.name}#${n}`,
    }),
    suggestions: async () => [],
  } as unknown as ForgeEffects;
}

describe('effects loaded on first use', () => {
  it('loads nothing until an effect is called, then once, and passes the call through', async () => {
    let loads = 0;
    const lazy = effectsOnFirstUse(async () => {
      loads++;
      return effects();
    });
    expect(loads).toBe(0);
    expect(await lazy.getIssue(repo, 7)).toEqual({ title: 'o/r#7' });
    expect(await lazy.suggestions({} as never)).toEqual([]);
    expect(loads).toBe(1);
  });

  it('a load that failed rejects that call and is tried again on the next', async () => {
    let loads = 0;
    const lazy = effectsOnFirstUse(async () => {
      if (++loads === 1) throw new Error('module would not load');
      return effects();
    });
    await expect(lazy.getIssue(repo, 1)).rejects.toThrow('module would not load');
    expect(await lazy.getIssue(repo, 2)).toEqual({ title: 'o/r#2' });
    expect(loads).toBe(2);
  });

  it('stands in for every effect of the port', () => {
    const lazy = effectsOnFirstUse(async () => effects());
    expect(Object.keys(lazy).sort()).toEqual(
      [
        'answerQuestions',
        'answerRound',
        'demotePr',
        'escalate',
        'getIssue',
        'listIssueComments',
        'openDraftPr',
        'postPlan',
        'promotePr',
        'readCi',
        'rerunCi',
        'suggestions',
      ].sort(),
    );
  });
});
