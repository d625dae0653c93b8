import { type Anthropic, APIError } from '@anthropic-ai/sdk';
import type {
  ContentBlockParam,
  MessageCountTokensParams,
  MessageParam,
  TextBlockParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { Logger } from '../log.js';

// Input tokens of a request: the API's own count (`messages.countTokens`, free) when the endpoint
// answers, a conservative estimate otherwise. Counting never fails a step.

export type CountableRequest = Pick<
  MessageCountTokensParams,
  'model' | 'system' | 'messages' | 'tools' | 'tool_choice'
>;

/** Three characters a token undercounts neither code nor prose (the tokenizer averages more). */
export const estimateTokens = (text: string) => Math.ceil(text.length / 3);

const BLOCK_OVERHEAD = 4;

export function estimateRequestTokens(request: CountableRequest): number {
  let total = 16;
  for (const tool of (request.tools ?? []) as Tool[]) total += estimateTokens(JSON.stringify(tool));
  const system = request.system;
  if (typeof system === 'string') total += estimateTokens(system) + BLOCK_OVERHEAD;
  else
    for (const block of (system ?? []) as TextBlockParam[])
      total += estimateTokens(block.text) + BLOCK_OVERHEAD;
  for (const message of request.messages as MessageParam[]) total += estimateContent(message.content);
  return total;
}

function estimateContent(content: MessageParam['content']): number {
  if (typeof content === 'string') return estimateTokens(content) + BLOCK_OVERHEAD;
  let total = 0;
  for (const block of content as ContentBlockParam[]) {
    if (block.type === 'text') total += estimateTokens(block.text);
    else if (block.type === 'tool_use') total += estimateTokens(block.name + JSON.stringify(block.input));
    else if (block.type === 'tool_result')
      total +=
        typeof block.content === 'string'
          ? estimateTokens(block.content)
          : estimateTokens(JSON.stringify(block.content ?? ''));
    else total += estimateTokens(JSON.stringify(block));
    total += BLOCK_OVERHEAD;
  }
  return total;
}

export interface TokenCount {
  tokens: number;
  /** Counted by the API, not estimated. */
  exact: boolean;
}

export interface TokenCounter {
  count(request: CountableRequest, signal?: AbortSignal): Promise<TokenCount>;
}

export function tokenCounter(client: Anthropic, options: { timeoutMs: number; log?: Logger }): TokenCounter {
  let available = true;
  return {
    async count(request, signal) {
      if (available) {
        try {
          const counted = await client.messages.countTokens(request, {
            signal,
            timeout: options.timeoutMs,
            maxRetries: 1,
          });
          return { tokens: counted.input_tokens, exact: true };
        } catch (err) {
          if (signal?.aborted) throw err;
          // An endpoint that is not there stays not there; anything else may pass.
          if (err instanceof APIError && (err.status === 404 || err.status === 405)) available = false;
          options.log?.debug({ err: String(err) }, 'count_tokens failed; estimating instead');
        }
      }
      return { tokens: estimateRequestTokens(request), exact: false };
    },
  };
}
