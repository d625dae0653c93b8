import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { isPriced, PRICES_AS_OF, priceFor, usageOf } from '../../src/claude/price-table.js';
import { loadEnv } from '../../src/env.js';

/** The model ids the installed Anthropic SDK knows: the literals of its `Model` type. */
function sdkModels(): string[] {
  const require = createRequire(import.meta.url);
  const file = require.resolve('@anthropic-ai/sdk/resources/messages/messages').replace(/\.js$/, '.d.ts');
  const union = /export type Model = ([^;]+);/.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
  return [...union.matchAll(/'([^']+)'/g)].map((m) => m[1] as string);
}

describe('price table', () => {
  it.each([
    ['claude-sonnet-4-5', 'sonnet'],
    ['claude-opus-4-5-20251101', 'opus'],
    ['claude-opus-4-1', 'opus-legacy'],
    ['claude-haiku-4-5', 'haiku'],
    ['claude-3-5-haiku-latest', 'haiku-3.5'],
    ['claude-mythos-5', 'fable'],
    ['claude-fable-5-1', 'fable-5.1'],
    ['claude-opus-5-5', 'opus-5.5'],
    ['claude-sonnet-5', 'sonnet-5'],
    ['gpt-5', 'unknown'],
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

  it('has a price for every model the Anthropic SDK knows, and says which it lacks', () => {
    const models = sdkModels();
    expect(models.length).toBeGreaterThan(5);
    const missing = models.filter((m) => !isPriced(m));
    expect(missing, `models with no row in src/claude/price-table.ts (as of ${PRICES_AS_OF})`).toEqual([]);
  });

  it('prices the default model', () => {
    const { BOOTY_MODEL } = loadEnv({});
    expect(isPriced(BOOTY_MODEL)).toBe(true);
  });

  it('dates the table', () => {
    expect(PRICES_AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("charges a cache hit at the model row's own price where it has one", () => {
    expect(
      usageOf('claude-fable-5-1', { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 1e6 })
        .costUsd,
    ).toBe(0.25);
  });
});
