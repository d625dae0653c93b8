import { BootyError } from '../errors.js';
import type { FileChange } from '../events/effect-results.js';
import type { Logger } from '../log.js';
import type { EffectImpl } from '../machines/effect-contract.js';
import { type EffectInput, type JobContext, tokensSpent } from '../machines/job-context.js';
import { type AnswerTool, analysisTool, type ChangesAnswer, changesTool } from './answer-schemas.js';
import { createAnthropicClient, DEFAULT_TIMEOUT_MS } from './anthropic-client.js';
import { attemptHistory, latestFailure } from './failure-report.js';
import { rankFiles } from './file-relevance.js';
import {
  ANALYZE_TASK,
  analysisText,
  followUpText,
  GENERATE_TASK,
  issueText,
  prDiffText,
  REFINE_TASK,
  touchedFilesIntro,
  touchedFileText,
} from './prompts.js';
import type { RepoReader } from './repo-reader.js';
import { planRequest } from './request-plan.js';
import { askForAnswer } from './structured-call.js';
import { testViolations } from './test-guard.js';
import { tokenCounter } from './token-counter.js';

// The three steps that think, as effects for the job machine: analyze → Analysis, generate and
// refine → complete file contents. Each reads the job from its input, builds its request from the
// repository and the log, and returns its answer with the tokens and dollars it cost.

export interface ClaudeEffectsOptions {
  apiKey: string;
  /** ANTHROPIC_BASE_URL: the simulator in tests and `booty demo`. */
  baseURL?: string;
  /** BOOTY_MODEL */
  model: string;
  /** BOOTY_MAX_INPUT_TOKENS: no request is bigger. */
  maxInputTokens: number;
  timeoutMs?: number;
  maxRetries?: number;
  /** max_tokens of the answer, per kind of step. */
  maxOutputTokens?: { analyze?: number; changes?: number };
  /** The job's repository, read at its base commit (see repoReaderFor). */
  repo: (job: JobContext) => Promise<RepoReader>;
  log?: Logger;
}

export interface ClaudeEffects {
  analyze: EffectImpl<'analyze'>;
  generate: EffectImpl<'generate'>;
  refine: EffectImpl<'refine'>;
}

type Step = 'analyze' | 'generate' | 'refine';

interface StepParts<T> {
  tool: AnswerTool<T>;
  reader: RepoReader;
  tree: string[];
  /** The fenced issue: its words and paths steer which files are relevant. */
  issue: string;
  stable: string;
  head: string;
  sections: string[];
  check?: (value: T) => Promise<string[]>;
}

export function createClaudeEffects(options: ClaudeEffectsOptions): ClaudeEffects {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const client = createAnthropicClient({ ...options, timeoutMs });
  const counter = tokenCounter(client, { timeoutMs: Math.min(timeoutMs, 60_000), log: options.log });
  const outputCap = { analyze: 8_192, changes: 32_000, ...options.maxOutputTokens };

  /** Builds the step's request from its parts, then asks until the answer validates. */
  async function ask<T>(step: Step, input: EffectInput, signal: AbortSignal, parts: StepParts<T>) {
    const { job } = input;
    const plan = await planRequest({
      step,
      model: options.model,
      tool: parts.tool.tool,
      job,
      reader: parts.reader,
      tree: parts.tree,
      ranked: rankFiles({ files: parts.tree, analysis: job.analysis, issueText: parts.issue }),
      stable: parts.stable,
      head: parts.head,
      sections: parts.sections,
      maxInputTokens: options.maxInputTokens,
    });
    return askForAnswer({
      client,
      counter,
      step,
      key: input.key,
      model: options.model,
      tool: parts.tool,
      maxInputTokens: options.maxInputTokens,
      maxOutputTokens: step === 'analyze' ? outputCap.analyze : outputCap.changes,
      timeoutMs,
      budget: { max: job.settings.maxTokens, spent: tokensSpent(job.usage) },
      ...plan,
      check: parts.check,
      signal,
      log: options.log?.child({ jobId: job.jobId }),
    });
  }

  const analyze: EffectImpl<'analyze'> = async (input, { signal }) => {
    const reader = await options.repo(input.job);
    const issue = issueText(input.job);
    const { value, usage } = await ask('analyze', input, signal, {
      tool: analysisTool,
      reader,
      tree: await reader.listFiles(),
      issue,
      stable: issue,
      head: ANALYZE_TASK,
      sections: [],
    });
    return { analysis: value, usage };
  };

  async function changes(step: 'generate' | 'refine', input: EffectInput, signal: AbortSignal) {
    const { job } = input;
    if (!job.analysis)
      throw new BootyError('BOOTY_E_EFFECT_FAILED', { src: step, reason: 'the job has no analysis yet' });
    const reader = await options.repo(job);
    const issue = issueText(job);
    const touched = touchedOrder(job);
    const sections = touched.map((c) => touchedFileText(c.path, c.content));
    const prDiff = await roundDiff(job, reader);
    const head =
      step === 'generate'
        ? [
            GENERATE_TASK,
            followUpText(job),
            prDiff,
            ...(touched.length ? [touchedFilesIntro(touched.map((c) => c.path))] : []),
          ]
        : [
            REFINE_TASK,
            followUpText(job),
            prDiff,
            latestFailure(job) ?? '',
            attemptHistory(job.attempts),
            ...(touched.length ? [touchedFilesIntro(touched.map((c) => c.path))] : []),
          ];
    const current = new Map(job.changes.map((c) => [c.path, c.content]));
    const previous = async (path: string) => (current.has(path) ? current.get(path)! : reader.readFile(path));
    const check = (answer: ChangesAnswer) =>
      testViolations({
        changes: answer.changes,
        deletePaths: answer.deletePaths,
        addedTests: job.addedTests,
        previous,
      });
    const { value, usage } = await ask(step, input, signal, {
      tool: changesTool,
      reader,
      tree: await reader.listFiles(),
      issue,
      stable: `${issue}\n\n${analysisText(job.analysis)}`,
      head: head.filter(Boolean).join('\n\n'),
      sections,
      check,
    });
    return { changes: toFileChanges(value), explanation: value.explanation, usage };
  }

  return {
    analyze,
    generate: (input, { signal }) => changes('generate', input, signal),
    refine: (input, { signal }) => changes('refine', input, signal),
  };
}

/** The job's changed files, those of the latest attempt first. */
function touchedOrder(job: JobContext): FileChange[] {
  const latest = new Set(job.attempts.at(-1)?.files ?? []);
  return [...job.changes].sort(
    (a, b) => Number(latest.has(b.path)) - Number(latest.has(a.path)) || (a.path < b.path ? -1 : 1),
  );
}

export function toFileChanges(answer: ChangesAnswer): FileChange[] {
  const changes: FileChange[] = [
    ...answer.changes.map((c) => ({ path: c.path, content: c.content })),
    ...answer.deletePaths.map((path) => ({ path, content: null })),
  ];
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A round works on the PR as it stands: the model sees the PR's whole change, not only the files it touches. */
async function roundDiff(job: JobContext, reader: RepoReader): Promise<string> {
  const base = job.conversation.firstBase;
  if (!job.round || !base || base === job.workspace?.baseSha) return '';
  const diff = await reader.diffFrom(base);
  return diff ? prDiffText(diff, base) : '';
}
