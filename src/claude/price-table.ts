import type { Usage } from '../events/effect-results.js';

// What a call costs, from Anthropic's published per-million-token prices (the pricing page at
// platform.claude.com/docs/en/about-claude/pricing, read on PRICES_AS_OF). Cache writes (5-minute)
// cost 1.25× the input price; cache reads 0.1× unless the model's row says otherwise.

/** The day the table below was last checked against Anthropic's pricing page. */
export const PRICES_AS_OF = '2026-11-28';

export interface Price {
  family: string;
  inputPerMTok: number;
  outputPerMTok: number;
  /** Cache hits, per million tokens, where they are not 0.1× the input price. */
  cacheReadPerMTok?: number;
}

/** First match wins: newer generations before the older ids they share a prefix with. */
const table: { match: RegExp; price: Price }[] = [
  // Fable 5.1 cut cache reads to a quarter of Fable 5's; a later 5.x is priced as 5.1 until it says otherwise.
  {
    match: /(fable|mythos)-5-[1-9]/,
    price: { family: 'fable-5.1', inputPerMTok: 10, outputPerMTok: 50, cacheReadPerMTok: 0.25 },
  },
  // The invitation-only preview is priced apart from the Fable line.
  { match: /mythos-preview/, price: { family: 'mythos-preview', inputPerMTok: 25, outputPerMTok: 125 } },
  { match: /fable|mythos/, price: { family: 'fable', inputPerMTok: 10, outputPerMTok: 50 } },
  {
    match: /opus-5-[5-9]/,
    price: { family: 'opus-5.5', inputPerMTok: 4, outputPerMTok: 20, cacheReadPerMTok: 0.2 },
  },
  { match: /opus-4-[5-9]|opus-5/, price: { family: 'opus', inputPerMTok: 5, outputPerMTok: 25 } },
  { match: /opus/, price: { family: 'opus-legacy', inputPerMTok: 15, outputPerMTok: 75 } },
  {
    match: /sonnet-5-[5-9]/,
    price: { family: 'sonnet-5.5', inputPerMTok: 2, outputPerMTok: 10, cacheReadPerMTok: 0.1 },
  },
  { match: /sonnet-5/, price: { family: 'sonnet-5', inputPerMTok: 2, outputPerMTok: 10 } },
  { match: /sonnet/, price: { family: 'sonnet', inputPerMTok: 3, outputPerMTok: 15 } },
  // Haiku 5.5 costs $0.10/$0.50 up to a 100k-token prompt and $0.50/$2.50 beyond: the upper band,
  // so a long prompt's cost is never under-counted against a cap.
  { match: /haiku-5/, price: { family: 'haiku-5', inputPerMTok: 0.5, outputPerMTok: 2.5 } },
  { match: /haiku-4/, price: { family: 'haiku', inputPerMTok: 1, outputPerMTok: 5 } },
  { match: /3-5-haiku|haiku-3-5/, price: { family: 'haiku-3.5', inputPerMTok: 0.8, outputPerMTok: 4 } },
  { match: /haiku/, price: { family: 'haiku-3', inputPerMTok: 0.25, outputPerMTok: 1.25 } },
];

/** An unknown family is priced like the dearest listed one, so its cost is never under-reported. */
const unknown: Price = { family: 'unknown', inputPerMTok: 25, outputPerMTok: 125 };

export const CACHE_WRITE_FACTOR = 1.25;
export const CACHE_READ_FACTOR = 0.1;

export function priceFor(model: string): Price {
  return table.find((row) => row.match.test(model))?.price ?? unknown;
}

/** Whether the table has a row for the model (else it is charged at the `unknown` price). */
export function isPriced(model: string): boolean {
  return table.some((row) => row.match.test(model));
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
      cacheReadTokens * (price.cacheReadPerMTok ?? price.inputPerMTok * CACHE_READ_FACTOR) +
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
