import type { Usage } from '../events/effect-results.js';

// What a call costs, from Anthropic's published per-million-token prices by model family.
// Cache writes (5-minute) cost 1.25× the input price and cache reads 0.1×.

export interface Price {
  family: string;
  inputPerMTok: number;
  outputPerMTok: number;
}

/** First match wins: newer generations before the older ids they share a prefix with. */
const table: { match: RegExp; price: Price }[] = [
  { match: /opus-4-[5-9]|opus-[5-9]/, price: { family: 'opus', inputPerMTok: 5, outputPerMTok: 25 } },
  { match: /opus/, price: { family: 'opus-legacy', inputPerMTok: 15, outputPerMTok: 75 } },
  { match: /sonnet/, price: { family: 'sonnet', inputPerMTok: 3, outputPerMTok: 15 } },
  { match: /haiku-4|haiku-[5-9]/, price: { family: 'haiku', inputPerMTok: 1, outputPerMTok: 5 } },
  { match: /3-5-haiku|haiku-3-5/, price: { family: 'haiku-3.5', inputPerMTok: 0.8, outputPerMTok: 4 } },
  { match: /haiku/, price: { family: 'haiku-3', inputPerMTok: 0.25, outputPerMTok: 1.25 } },
];

/** An unknown family is priced like the dearest current one, so its cost is never under-reported. */
const unknown: Price = { family: 'unknown', inputPerMTok: 5, outputPerMTok: 25 };

export const CACHE_WRITE_FACTOR = 1.25;
export const CACHE_READ_FACTOR = 0.1;

export function priceFor(model: string): Price {
  return table.find((row) => row.match.test(model))?.price ?? unknown;
}

/** The usage block of a Messages API response. */
export interface ApiUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

export function usageOf(model: string, api: ApiUsage): Usage {
  const price = priceFor(model);
  const inputTokens = api.input_tokens;
  const cacheWriteTokens = api.cache_creation_input_tokens ?? 0;
  const cacheReadTokens = api.cache_read_input_tokens ?? 0;
  const outputTokens = api.output_tokens;
  const usd =
    (inputTokens * price.inputPerMTok +
      cacheWriteTokens * price.inputPerMTok * CACHE_WRITE_FACTOR +
      cacheReadTokens * price.inputPerMTok * CACHE_READ_FACTOR +
      outputTokens * price.outputPerMTok) /
    1e6;
  return {
    model,
    inputTokens,
    outputTokens,
    cacheReadTokens,
    cacheWriteTokens,
    costUsd: roundUsd(usd),
  };
}

export function sumUsage(a: Usage, b: Usage): Usage {
  return {
    model: b.model,
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    costUsd: roundUsd(a.costUsd + b.costUsd),
  };
}

export const noUsage = (model: string): Usage => ({
  model,
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd: 0,
});

const roundUsd = (usd: number) => Math.round(usd * 1e6) / 1e6;
