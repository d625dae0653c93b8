import type { Anthropic } from '@anthropic-ai/sdk';
import type { FailureClass } from '../events/effect-results.js';
import type { Logger } from '../log.js';
import { failureClassTool } from './answer-schemas.js';
import { noUsage } from './price-table.js';
import { CLASSIFY_PROMPT } from './prompts.js';
import { askForAnswer, type JobBudget } from './structured-call.js';
import type { TokenCounter } from './token-counter.js';

// When the pattern table cannot name a failure (`unknown`), one small model call can: the failure
// alone, no repository, a fixed schema, a short answer. Its reading only steers the next request's
// guidance, so the call is best effort: if it fails, the refinement goes on without it, and the
// tokens it spent still count.

export interface ClassifyInput {
  client: Anthropic;
  counter: TokenCounter;
  model: string;
  key: string;
  /** The attempt's failure, as the refine request shows it. */
  failure: string;
  budget: JobBudget;
  maxInputTokens: number;
  timeoutMs: number;
  signal: AbortSignal;
  log?: Logger;
}

const MAX_OUTPUT_TOKENS = 256;

export async function classifyFailure(input: ClassifyInput) {
  const request = {
    model: input.model,
    tools: [failureClassTool.tool],
    tool_choice: { type: 'tool' as const, name: failureClassTool.name, disable_parallel_tool_use: true },
    system: [{ type: 'text' as const, text: CLASSIFY_PROMPT }],
    messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: input.failure }] }],
  };
  try {
    const { value, usage } = await askForAnswer({
      ...input,
      step: 'refine',
      key: `${input.key}:classify`,
      tool: failureClassTool,
      maxOutputTokens: MAX_OUTPUT_TOKENS,
      render: () => request,
      repoFiles: [],
      sections: [],
    });
    return { failureClass: value.failureClass as FailureClass, usage };
  } catch (err) {
    input.log?.warn({ err, key: input.key }, 'could not classify the failure; refining without it');
    const spent = (err as { usage?: ReturnType<typeof noUsage> }).usage;
    return { failureClass: null, usage: spent ?? noUsage(input.model) };
  }
}
