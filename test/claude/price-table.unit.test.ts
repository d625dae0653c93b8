import { describe, expect, it } from 'vitest';
import { priceFor, usageOf } from '../../src/claude/price-table.js';

describe('price table', () => {
  it.each([
    ['claude-sonnet-4-5', 'sonnet'],
    ['claude-opus-4-5-20251101', 'opus'],
    ['claude-opus-4-1', 'opus-legacy'],
    ['claude-haiku-4-5', 'haiku'],
    ['claude-3-5-haiku-latest', 'haiku-3.5'],
    ['claude-mythos-5', 'unknown'],
  ])('prices %s as %s', (model, family) => {
    expect(priceFor(model).family).toBe(family);
  });

  it('charges input, cache writes at 1.25x, cache reads at 0.1x and output', () => {
    const usage = usageOf('claude-sonnet-4-6', {
      input_tokens: 1_000,
      output_tokens: 2_000,
      cache_creation_input_tokens: 10_000,
      cache_read_input_tokens: 100_000,
    });
    // 1000×3 + 10000×3.75 + 100000×0.3 + 2000×15 = 100,500 µ$
    expect(usage).toEqual({
      model: 'claude-sonnet-4-6',
      inputTokens: 1_000,
      outputTokens: 2_000,
      cacheWriteTokens: 10_000,
      cacheReadTokens: 100_000,
      costUsd: 0.1005,
    });
  });
});
