import { BootyError } from '../errors.js';
import type { FileChange, Usage } from '../events/effect-results.js';
import type { Logger } from '../log.js';
import type { EffectImpl } from '../machines/effect-contract.js';
import {
  addUsage,
  type EffectInput,
  type JobContext,
  tokensSpent,
  usdCapOf,
} from '../machines/job-context.js';
import { holdsSecrets } from '../workspace/path-policy.js';
import { answerRules } from './answer-rules.js';
import {
  type AnswerTool,
  analysisTool,
  changesTool,
  type QuestionAnswer,
  questionTool,
} from './answer-schemas.js';
import { createAnthropicClient, DEFAULT_TIMEOUT_MS } from './anthropic-client.js';
import { attemptPatches, attemptsInScope, touchedPaths } from './attempt-patches.js';
import { classifyFailure } from './classify-failure.js';
import { attemptBlock, baselineLine } from './failure-report.js';
import { rankFiles } from './file-relevance.js';
import { noUsage, sumUsage } from './price-table.js';
import {
  ANALYZE_TASK,
  analysisText,
  classifiedText,
  followUpText,
  GENERATE_TASK,
  HISTORY_INTRO,
  issueText,
  prDiffText,
  questionTask,
  questionText,
  refineTask,
  touchedFilesIntro,
  touchedFileText,
} from './prompts.js';
import { instructionsFor, instructionsText } from './repo-instructions.js';
import type { RepoReader } from './repo-reader.js';
import { type CurrentFile, planRequest } from './request-plan.js';
import { askForAnswer, type Review, withSpent } from './structured-call.js';
import { tokenCounter } from './token-counter.js';

// The three steps that think, as effects for the job machine: analyze → Analysis, generate and
// refine → complete file contents (the model's edits resolved against the current code). Each
// reads the job from its input, builds its request from the repository and the log, and returns
// its answer with the tokens and dollars it cost.

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
  /** The job's repository, read at its base commit, or at `ref` (see repoReaderFor). */
  repo: (job: JobContext, ref?: string) => Promise<RepoReader>;
  log?: Logger;
}

export interface ClaudeEffects {
  analyze: EffectImpl<'analyze'>;
  generate: EffectImpl<'generate'>;
  refine: EffectImpl<'refine'>;
  /** A round's questions, answered from the code at `commit`. */
  answer(
    input: EffectInput,
    ctx: { signal: AbortSignal },
    commit: string,
  ): Promise<{ value: QuestionAnswer; usage: Usage }>;
}

type Step = 'analyze' | 'generate' | 'refine' | 'question';

interface StepParts<T> {
  tool: AnswerTool<T>;
  reader: RepoReader;
  tree: string[];
  /** The fenced issue: its words and paths steer which files are relevant. */
  issue: string;
  stable: string;
  /** The earlier attempts, oldest first: cached after the stable block, breakpoints at the last two. */
  history?: string[];
  head: string;
  currentFiles?: CurrentFile[];
  check?: (value: T) => Promise<string[]>;
  review?: (value: T) => Promise<Review>;
  /** Tokens this step already spent (a classification call), for the job's budget. */
  spent?: Usage;
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
      // Named in the tree, but never read into a request: what a credential file holds stays here.
      ranked: rankFiles({ files: parts.tree, analysis: job.analysis, issueText: parts.issue }).filter(
        (f) => !holdsSecrets(f),
      ),
      stable: parts.stable,
      history: parts.history ?? [],
      head: parts.head,
      currentFiles: parts.currentFiles,
      instructions: instructionsText(instructionsFor(job.workspace?.instructions ?? [], changeScope(job))),
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
      maxOutputTokens: step === 'analyze' || step === 'question' ? outputCap.analyze : outputCap.changes,
      timeoutMs,
      budget: budgetOf(job, parts.spent),
      ...plan,
      check: parts.check,
      review: parts.review,
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
    });
    return { analysis: value, usage };
  };

  async function changes(step: 'generate' | 'refine', input: EffectInput, signal: AbortSignal) {
    const { job } = input;
    // A round on someone else's pull request has no analysis: its request says what to do.
    if (!job.analysis && !job.round)
      throw new BootyError('BOOTY_E_EFFECT_FAILED', { src: step, reason: 'the job has no analysis yet' });
    const reader = await options.repo(job);
    const issue = issueText(job);
    const touched = touchedOrder(job);
    const prDiff = await roundDiff(job, reader);
    const scope = attemptsInScope(job);
    const base = await reader.readFiles([
      ...new Set([...touchedPaths(scope), ...job.changes.map((c) => c.path)]),
    ]);
    const patches = attemptPatches(scope, base);
    // The baseline's failures and a class's guidance are said once, not in every attempt's block.
    const baselineFailing = job.baseline?.failingTests ?? null;
    const history = scope.map(
      (a, i) =>
        `${i === 0 ? `${HISTORY_INTRO}\n${baselineFailing ? `${baselineLine(baselineFailing)}\n` : ''}` : ''}${attemptBlock(
          a,
          patches[i]!.text,
          baselineFailing,
          {
            guidedAt: scope.slice(0, i).find((b) => b.failureClass === a.failureClass)?.n ?? null,
            baseline: baselineFailing !== null,
          },
        )}`,
    );
    // A file the job changed is rebuilt from the cached prefix (the base, then the patches): its
    // text is sent again only where that cannot work, so the uncached part stays small.
    const complete = patches.every((p) => !p.cut);
    const currentFiles = touched.map(
      (c): CurrentFile => ({
        path: c.path,
        text: touchedFileText(c.path, c.content),
        rebuiltFrom: !complete ? null : (base.get(c.path) ?? null) === null ? 'patches' : 'base',
      }),
    );
    // An `unknown` failure gets one cheap reading by the model, for the guidance of its class.
    const previous = scope.at(-1);
    const reading =
      step === 'refine' && previous?.failureClass === 'unknown' && previous.test
        ? await classifyFailure({
            client,
            counter,
            model: options.model,
            key: input.key,
            failure: attemptBlock(previous, '', job.baseline?.failingTests ?? null),
            budget: budgetOf(job),
            maxInputTokens: options.maxInputTokens,
            timeoutMs,
            signal,
            log: options.log?.child({ jobId: job.jobId }),
          })
        : null;
    const classified = reading?.failureClass !== 'unknown' ? (reading?.failureClass ?? null) : null;
    const head = [
      step === 'generate' ? GENERATE_TASK : refineTask(previous?.n ?? job.attempt - 1),
      ...(classified && previous ? [classifiedText(previous.n, classified)] : []),
      ...(touched.length ? [touchedFilesIntro(touched.map((c) => c.path))] : []),
    ];
    const rules = answerRules({ job, reader, attempts: scope, base });
    const spent = reading?.usage;
    const noted = classified ? { classifiedAs: classified } : {};
    const asked = await ask(step, input, signal, {
      tool: changesTool,
      reader,
      tree: await reader.listFiles(),
      issue,
      stable: [issue, job.analysis ? analysisText(job.analysis) : '', followUpText(job), prDiff]
        .filter(Boolean)
        .join('\n\n'),
      history,
      head: head.join('\n\n'),
      currentFiles,
      check: rules.check,
      review: rules.review,
      spent,
    }).catch((err: unknown) => {
      const failed = spent ? withSpent(err, spent) : err;
      if (!(failed instanceof BootyError && failed.code === 'BOOTY_E_CLAUDE_ANSWER_INVALID')) throw failed;
      return { invalid: failed, usage: (failed as { usage?: Usage }).usage ?? noUsage(options.model) };
    });
    // Still invalid, or unusable, after the one repair turn: nothing is applied, so the attempt is
    // spent without a test run (class invalid-model-output), and the next attempt reads why.
    if ('invalid' in asked)
      return {
        changes: [],
        explanation: `booty did not apply this answer: ${asked.invalid.message}`,
        usage: asked.usage,
        ...noted,
      };
    const { value, unresolved } = asked;
    const usage = spent ? sumUsage(spent, asked.usage) : asked.usage;
    if (unresolved.length) {
      const repeated = rules.repeated();
      return {
        changes: [],
        // The note first: the history shows an explanation only up to its cap.
        explanation: `booty did not apply this answer: ${unresolved.join('; ')}\n\n${value.explanation}`,
        usage,
        ...noted,
        ...(repeated !== null && { repeated }),
      };
    }
    return { changes: await rules.changesOf(value), explanation: value.explanation, usage, ...noted };
  }

  /** The questions of the round, from the code at `commit`: nothing is written or run. */
  async function answer(input: EffectInput, { signal }: { signal: AbortSignal }, commit: string) {
    const reader = await options.repo(input.job, commit);
    const tree = await reader.listFiles();
    const issue = issueText(input.job);
    const known = new Set(tree);
    const { value, usage } = await ask('question', input, signal, {
      tool: questionTool,
      reader,
      tree,
      issue: `${issue}\n${questionText(input.job)}`,
      stable: [issue, questionText(input.job)].join('\n\n'),
      head: questionTask(commit),
      // A reference names a file of the commit read, and a line within it.
      check: async (a) => {
        const texts = await reader.readFiles([...new Set(a.references.map((r) => r.path))]);
        return a.references.flatMap((r) => {
          if (!known.has(r.path))
            return [`references: ${r.path} is not a file of commit ${commit.slice(0, 12)}`];
          const lines = (texts.get(r.path) ?? '').split('\n').length;
          const last = r.endLine ?? r.line;
          return last !== null && last > lines
            ? [`references: ${r.path} has ${lines} lines, not ${last}`]
            : [];
        });
      },
    });
    return { value, usage };
  }

  return {
    analyze,
    generate: (input, { signal }) => changes('generate', input, signal),
    refine: (input, { signal }) => changes('refine', input, signal),
    answer,
  };
}

/**
 * The paths whose nearest AGENTS.md a request carries: what the analysis plans to change, and what
 * the round's reviewers pointed at. Neither moves between a job's attempts, so neither does the prefix.
 */
function changeScope(job: JobContext): string[] {
  const planned = job.analysis ? [...job.analysis.filesToChange, ...job.analysis.testsToAdd] : [];
  const pointed = (job.round?.triggers ?? []).flatMap((t) =>
    t.kind === 'feedback' ? t.comments.flatMap((c) => (c.path ? [c.path] : [])) : [],
  );
  return [...planned, ...pointed];
}

/** The job's token bound and what it has spent, with what this step spent so far. */
const budgetOf = (job: JobContext, before?: Usage) => {
  const spent = before ? addUsage(job.usage, before) : job.usage;
  return {
    max: job.settings.maxTokens,
    spent: tokensSpent(spent),
    maxUsd: usdCapOf(job),
    spentUsd: spent.costUsd,
  };
};

/** The job's changed files, those of the latest attempt first. */
function touchedOrder(job: JobContext): FileChange[] {
  const latest = new Set(job.attempts.at(-1)?.files ?? []);
  return [...job.changes].sort(
    (a, b) => Number(latest.has(b.path)) - Number(latest.has(a.path)) || (a.path < b.path ? -1 : 1),
  );
}

/** A round works on the PR as it stands: the model sees the PR's whole change, not only the files it touches. */
async function roundDiff(job: JobContext, reader: RepoReader): Promise<string> {
  const base = job.conversation.firstBase;
  if (!job.round || !base || base === job.workspace?.baseSha) return '';
  const diff = await reader.diffFrom(base);
  return diff ? prDiffText(diff, base) : '';
}
