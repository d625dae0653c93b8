import type { Anthropic } from '@anthropic-ai/sdk';
import type {
  ContentBlockParam,
  Message,
  MessageParam,
  ToolResultBlockParam,
  ToolUseBlock,
} from '@anthropic-ai/sdk/resources/messages/messages';
import { BootyError } from '../errors.js';
import type { Usage } from '../events/effect-results.js';
import type { Logger } from '../log.js';
import { type AnswerTool, describeIssues } from './answer-schemas.js';
import { claudeError } from './anthropic-client.js';
import { type Fitted, fitRequest, type Keep, type RepoFile } from './context-budget.js';
import { noUsage, type Price, priceFor, sumUsage, usageOf } from './price-table.js';
import type { CountableRequest, TokenCounter } from './token-counter.js';

// One step's conversation with the model: fit the request, check the job's token budget, call,
// validate the forced tool's input with its zod schema (and the step's own rules). An invalid
// answer gets exactly one repair turn quoting what was wrong; a second invalid answer fails the step.
// A step that fails after a call answered carries what it spent (`usage` on the error), so the
// job's budget counts it.

export interface JobBudget {
  /** The job's token bound (BOOTY_MAX_TOKENS_PER_JOB), or null for none. */
  max: number | null;
  /** Tokens the job has spent before this step. */
  spent: number;
  /** The job's dollar cap (BOOTY_MAX_USD_PER_JOB, booty.yml's maxUsd, raised by continues), or null for none. */
  maxUsd?: number | null;
  /** Dollars the job has spent before this step. */
  spentUsd?: number;
}

export interface AskInput<T> {
  client: Anthropic;
  counter: TokenCounter;
  step: 'analyze' | 'generate' | 'refine' | 'question';
  key: string;
  model: string;
  tool: AnswerTool<T>;
  maxInputTokens: number;
  maxOutputTokens: number;
  timeoutMs: number;
  budget: JobBudget;
  render: (keep: Keep) => CountableRequest;
  repoFiles: RepoFile[];
  sections: string[];
  /** Rules beyond the schema; each returned string is a problem to repair. */
  check?: (value: T) => Promise<string[]>;
  /**
   * Softer rules for a valid answer: their problems go back in the one repair turn too, but an
   * answer that still breaks them is returned with them (`unresolved`) instead of failing the step.
   */
  review?: (value: T) => Promise<Review>;
  signal: AbortSignal;
  log?: Logger;
}

/** Below this many output tokens no answer is worth asking for. */
export const MIN_OUTPUT_TOKENS = 1024;

export interface Review {
  problems: string[];
  /** Shown with the problems in the repair turn only (the text to copy from), not kept with the answer. */
  context?: string[];
}

export interface Answered<T> {
  value: T;
  usage: Usage;
  /** The review's problems the repaired answer still has; empty when it has none. */
  unresolved: string[];
}

export async function askForAnswer<T>(input: AskInput<T>): Promise<Answered<T>> {
  let usage = noUsage(input.model);
  try {
    const fitInput = {
      step: input.step,
      maxInputTokens: input.maxInputTokens,
      counter: input.counter,
      signal: input.signal,
    };
    const first = await fitRequest({
      ...fitInput,
      render: input.render,
      repoFiles: input.repoFiles,
      sections: input.sections,
    });
    const one = await send(input, first, usage);
    usage = sumUsage(usage, one.usage);
    const problems = await validate(input, one.message, one.maxTokens);
    if (problems.ok) return { value: problems.value, usage, unresolved: [] };

    // The repair turn keeps the same prefix (same files, same sections) so it reads from the cache.
    const tail = repairTurns(one.message, input.tool.name, problems.problems, problems.context);
    const second = await fitRequest({
      ...fitInput,
      render: (keep) => withTail(input.render(keep), tail),
      repoFiles: input.repoFiles.slice(0, first.keep.repoFiles),
      sections: input.sections.slice(0, first.keep.sections),
    });
    const two = await send(input, second, usage);
    usage = sumUsage(usage, two.usage);
    const again = await validate(input, two.message, two.maxTokens);
    if (again.ok) return { value: again.value, usage, unresolved: [] };
    if (again.reviewed) return { value: again.reviewed, usage, unresolved: again.problems };
    throw new BootyError('BOOTY_E_CLAUDE_ANSWER_INVALID', {
      step: input.step,
      reason: again.problems.join('; '),
    });
  } catch (err) {
    throw withSpent(err, usage);
  }
}

/** The error, carrying the tokens spent before it (and by the call that raised it, if one answered). */
export function withSpent(err: unknown, before: Usage): unknown {
  if (!(err instanceof Error)) return err;
  const own = (err as { usage?: Usage }).usage;
  const spent = own ? sumUsage(before, own) : before;
  if (tokens(spent) > 0) Object.assign(err, { usage: spent });
  return err;
}

async function send<T>(input: AskInput<T>, fitted: Fitted, before: Usage) {
  const spent = input.budget.spent + tokens(before);
  const spentUsd = (input.budget.spentUsd ?? 0) + before.costUsd;
  const tokenCap = outputAllowance(input.budget.max, spent, fitted.inputTokens, input.maxOutputTokens);
  const usdCap = dollarAllowance(
    input.budget.maxUsd ?? null,
    spentUsd,
    priceFor(input.model),
    fitted.inputTokens,
    input.maxOutputTokens,
  );
  const maxTokens = Math.min(tokenCap, usdCap);
  let message: Message;
  try {
    message = await input.client.messages.create(
      // No sampling parameters: API version 2026-10-21 (this SDK's) rejects temperature, top_p and
      // top_k with a 400. Determinism comes from the request: the same log gives the same bytes.
      { ...fitted.request, model: input.model, max_tokens: maxTokens },
      { signal: input.signal, timeout: input.timeoutMs },
    );
  } catch (err) {
    throw claudeError(err, input.step);
  }
  const usage = usageOf(message.model, message.usage);
  input.log?.info(
    {
      key: input.key,
      step: input.step,
      counted: fitted.inputTokens,
      exact: fitted.exact,
      ...usage,
      stopReason: message.stop_reason,
    },
    'claude call',
  );
  // Cut off because the budget capped max_tokens: the job cannot afford this answer.
  if (message.stop_reason === 'max_tokens' && maxTokens < input.maxOutputTokens) {
    if (usdCap < tokenCap)
      throw Object.assign(
        new BootyError('BOOTY_E_BUDGET_EXCEEDED', {
          unit: 'usd',
          max: input.budget.maxUsd ?? 0,
          spent: dollars(spentUsd + usage.costUsd),
          needed: dollars(requestCost(priceFor(input.model), fitted.inputTokens, input.maxOutputTokens)),
        }),
        { usage },
      );
    if (input.budget.max !== null)
      throw Object.assign(
        new BootyError('BOOTY_E_BUDGET_EXCEEDED', {
          max: input.budget.max,
          spent: spent + tokens(usage),
          needed: fitted.inputTokens + input.maxOutputTokens,
        }),
        { usage },
      );
  }
  return { message, usage, maxTokens };
}

/** max_tokens for the call: the step's own cap, lowered so the job cannot go over its budget. */
export function outputAllowance(max: number | null, spent: number, inputTokens: number, cap: number): number {
  if (max === null) return cap;
  const floor = Math.min(cap, MIN_OUTPUT_TOKENS);
  const left = max - spent - inputTokens;
  if (left < floor)
    throw new BootyError('BOOTY_E_BUDGET_EXCEEDED', { max, spent, needed: inputTokens + floor });
  return Math.min(cap, left);
}

/** What a request may cost at most, in dollars: its counted input at the input price, and `output` tokens. */
const requestCost = (price: Price, inputTokens: number, output: number) =>
  (inputTokens * price.inputPerMTok + output * price.outputPerMTok) / 1e6;

/** Dollars as shown: to the hundredth of a cent. */
const dollars = (usd: number) => (Math.ceil(usd * 1e4) / 1e4).toFixed(4);

/**
 * max_tokens for the call under the job's dollar cap (the step's own cap when there is none): what
 * is left once the input is paid for, at the model's output price (src/claude/price-table.ts).
 * Refused before the call when that is less than an answer worth asking for.
 */
export function dollarAllowance(
  maxUsd: number | null,
  spentUsd: number,
  price: Price,
  inputTokens: number,
  cap: number,
): number {
  if (maxUsd === null) return cap;
  const floor = Math.min(cap, MIN_OUTPUT_TOKENS);
  const left = maxUsd - spentUsd - requestCost(price, inputTokens, 0);
  const affordable = Math.floor((left * 1e6) / price.outputPerMTok);
  if (affordable < floor)
    throw new BootyError('BOOTY_E_BUDGET_EXCEEDED', {
      unit: 'usd',
      max: maxUsd,
      spent: dollars(spentUsd),
      needed: dollars(requestCost(price, inputTokens, floor)),
    });
  return Math.min(cap, affordable);
}

/** `reviewed`: the answer is valid and only the review found problems. */
type Checked<T> =
  | { ok: true; value: T }
  | { ok: false; problems: string[]; context?: string[]; reviewed?: T };

async function validate<T>(input: AskInput<T>, message: Message, maxTokens: number): Promise<Checked<T>> {
  const call = message.content.find(
    (b): b is ToolUseBlock => b.type === 'tool_use' && b.name === input.tool.name,
  );
  if (!call)
    return {
      ok: false,
      problems: [`the answer did not call ${input.tool.name} (stop_reason ${message.stop_reason})`],
    };
  if (message.stop_reason === 'max_tokens')
    return {
      ok: false,
      problems: [
        `the answer was cut off at max_tokens (${maxTokens}) before it was complete; be more concise`,
      ],
    };
  const parsed = input.tool.schema.safeParse(call.input);
  if (!parsed.success) return { ok: false, problems: [describeIssues(parsed.error)] };
  const problems = (await input.check?.(parsed.data)) ?? [];
  if (problems.length) return { ok: false, problems };
  const review = (await input.review?.(parsed.data)) ?? { problems: [] };
  return review.problems.length
    ? { ok: false, problems: review.problems, context: review.context, reviewed: parsed.data }
    : { ok: true, value: parsed.data };
}

/** The invalid answer as the assistant's turn, and the problems as the tool's error result. */
export function repairTurns(
  message: Message,
  toolName: string,
  problems: string[],
  context: string[] = [],
): MessageParam[] {
  const said: ContentBlockParam[] = [];
  const results: ToolResultBlockParam[] = [];
  const text = [
    `Your ${toolName} answer was rejected:\n${problems.map((p) => `- ${p}`).join('\n')}`,
    ...context,
    `Call ${toolName} again with a complete, corrected answer. This is the only retry.`,
  ].join('\n');
  for (const block of message.content) {
    if (block.type === 'text' && block.text) said.push({ type: 'text', text: block.text });
    if (block.type === 'tool_use') {
      said.push({ type: 'tool_use', id: block.id, name: block.name, input: block.input ?? {} });
      results.push({
        type: 'tool_result',
        tool_use_id: block.id,
        is_error: true,
        content: block.name === toolName ? text : `Not used: only ${toolName} is answered here.`,
      });
    }
  }
  if (said.length === 0) said.push({ type: 'text', text: '(no answer)' });
  const reply: ContentBlockParam[] = results.length ? results : [{ type: 'text', text }];
  return [
    { role: 'assistant', content: said },
    { role: 'user', content: reply },
  ];
}

function withTail(request: CountableRequest, tail: MessageParam[]): CountableRequest {
  return { ...request, messages: [...request.messages, ...tail] };
}

const tokens = (u: Usage) => u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens;
