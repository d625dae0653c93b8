import { describe, expect, it } from 'vitest';
import { blocksOf, PromptCache } from '../../sim/anthropic/anthropic-wire.js';

// The simulator's prompt-cache accounting, as the API bills it: read the longest prefix written
// before (at a breakpoint, or at one of the 20 block boundaries before one), write what follows up
// to the last breakpoint, and count the rest as plain input.

const text = (t: string, cached = false) => ({
  type: 'text',
  text: t,
  ...(cached && { cache_control: { type: 'ephemeral' } }),
});
/** 400 characters: 100 tokens at the simulator's four characters a token. */
const block = (name: string) => name.padEnd(400, '.');
const body = (attempts: number, breakpoints: number[]) => ({
  model: 'm',
  system: [text(block('rules')), text(block('repository'), true)],
  messages: [
    {
      role: 'user',
      content: [
        ...Array.from({ length: attempts }, (_, i) =>
          text(block(`attempt ${i + 1}`), breakpoints.includes(i + 1)),
        ),
        text(block(`task ${attempts}`)),
      ],
    },
  ],
});
const BASE = 8;

describe('simulated prompt cache', () => {
  it('each request reads the prefix the one before wrote and writes only its new blocks, when the breakpoints move forward', () => {
    const cache = new PromptCache(150, 60_000, () => 0);
    const use = (attempts: number, breakpoints: number[]) =>
      cache.use('m', blocksOf(body(attempts, breakpoints)));
    expect(use(0, [])).toEqual({ read: 0, write: BASE + 200, input: 100 });
    expect(use(1, [1])).toEqual({ read: BASE + 200, write: 100, input: 100 });
    expect(use(2, [1, 2])).toEqual({ read: BASE + 300, write: 100, input: 100 });
    expect(use(3, [2, 3])).toEqual({ read: BASE + 400, write: 100, input: 100 });
  });

  it('a breakpoint finds a prefix written at an earlier block boundary, up to 20 blocks back, and no further', () => {
    const cache = new PromptCache(150, 60_000, () => 0);
    cache.use('m', blocksOf(body(1, [1])));
    // Only the last attempt is marked: the hit at attempt 1's end is found by looking back.
    expect(cache.use('m', blocksOf(body(19, [19])))).toEqual({ read: BASE + 300, write: 1_800, input: 100 });
    const far = new PromptCache(150, 60_000, () => 0);
    far.use('m', blocksOf(body(1, [1])));
    // 21 blocks from attempt 1's end to the breakpoint: too far, the repository's prefix is read instead.
    expect(far.use('m', blocksOf(body(22, [22])))).toEqual({ read: BASE + 200, write: 2_200, input: 100 });
  });

  it('a prefix is not read once its time to live has passed, and a prefix below the minimum is never stored', () => {
    let now = 0;
    const cache = new PromptCache(150, 1_000, () => now);
    cache.use('m', blocksOf(body(1, [1])));
    now = 1_001;
    expect(cache.use('m', blocksOf(body(1, [1])))).toEqual({ read: 0, write: BASE + 300, input: 100 });
    const big = new PromptCache(10_000, 1_000, () => 0);
    expect(big.use('m', blocksOf(body(1, [1])))).toEqual({ read: 0, write: 0, input: BASE + 400 });
  });
});
