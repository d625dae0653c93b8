import type { z } from 'zod';
import type {
  Analysis,
  EffectFailure,
  EffectName,
  FileChange,
  Generated,
  IssueComment,
  PullRequest,
  Rejection,
  RepoConfig,
  TestRun,
  Usage,
} from '../events/effect-results.js';
import type { IssueRef, JobRequested, JobSettings, RepoRef } from '../events/job-events.js';

// Everything a job knows. Plain JSON only: it is rebuilt by folding the log, and handed whole to
// effects as their input, so an effect never needs state that is not in the log.

export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
}

export interface AttemptRecord {
  n: number;
  explanation: string;
  files: string[];
  rejected: Rejection[];
  /** null when the attempt applied nothing, so there was nothing to test. */
  test: Pick<
    TestRun,
    'passed' | 'exitCode' | 'timedOut' | 'durationMs' | 'failingTests' | 'newFailures' | 'addedTestsFailing'
  > | null;
}

export type OutcomeReason =
  | 'tests-passed'
  | 'self-modification'
  | 'promotion-failed'
  | 'tests-failing'
  | 'no-changes'
  | 'budget'
  | 'error'
  | 'unlabeled'
  | 'closed'
  | 'operator';

export interface Outcome {
  reason: OutcomeReason;
  message: string;
}

export interface JobContext {
  jobId: string;
  repo: RepoRef;
  issue: IssueRef;
  triggerLabel: string;
  sender: string;
  deliveryId: string;
  installationId: number | null;
  requestedAt: number;
  settings: JobSettings;
  branch: string;
  /** From the repository config once it is read; the job settings until then. */
  maxAttempts: number;
  /** The attempt under way: 0 before the first generation. */
  attempt: number;
  workspace: { baseSha: string; defaultBranch: string } | null;
  config: RepoConfig | null;
  comments: z.infer<typeof IssueComment>[];
  baseline: TestRun | null;
  analysis: Analysis | null;
  /** The model's latest proposal, waiting for the path policy. */
  proposal: Generated | null;
  /** Every change applied so far, one entry per path, latest content wins. */
  changes: FileChange[];
  /** Test files the job added or changed: they must pass. */
  addedTests: string[];
  attempts: AttemptRecord[];
  lastTest: TestRun | null;
  pr: PullRequest | null;
  usage: UsageTotals;
  retry: { step: EffectName; count: number; notBefore: number } | null;
  error: { step: string; code: string; message: string } | null;
  outcome: Outcome | null;
}

/** What every effect receives. `key` makes the effect idempotent across restarts and retries. */
export interface EffectInput {
  key: string;
  step: EffectName;
  attempt: number;
  /** A retry waits until this time (epoch ms); the deadline survives a restart. */
  notBefore: number | null;
  job: JobContext;
}

export const zeroUsage: UsageTotals = {
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd: 0,
};

export function initialContext(input: JobRequested): JobContext {
  return {
    jobId: input.jobId,
    repo: input.repo,
    issue: input.issue,
    triggerLabel: input.triggerLabel,
    sender: input.sender,
    deliveryId: input.deliveryId,
    installationId: input.installationId,
    requestedAt: input.requestedAt,
    settings: input.settings,
    branch: branchName(input.issue),
    maxAttempts: input.settings.maxAttempts,
    attempt: 0,
    workspace: null,
    config: null,
    comments: [],
    baseline: null,
    analysis: null,
    proposal: null,
    changes: [],
    addedTests: [],
    attempts: [],
    lastTest: null,
    pr: null,
    usage: zeroUsage,
    retry: null,
    error: null,
    outcome: null,
  };
}

export function branchName(issue: Pick<IssueRef, 'number' | 'title'>): string {
  const slug = issue.title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return `booty/issue-${issue.number}${slug ? `-${slug}` : ''}`;
}

export function effectInput(job: JobContext, step: EffectName): EffectInput {
  return {
    key: `${job.jobId}:${step}:${job.attempt}`,
    step,
    attempt: job.attempt,
    notBefore: job.retry?.step === step ? job.retry.notBefore : null,
    job,
  };
}

export function addUsage(total: UsageTotals, usage: Usage): UsageTotals {
  return {
    inputTokens: total.inputTokens + usage.inputTokens,
    outputTokens: total.outputTokens + usage.outputTokens,
    cacheReadTokens: total.cacheReadTokens + usage.cacheReadTokens,
    cacheWriteTokens: total.cacheWriteTokens + usage.cacheWriteTokens,
    costUsd: Math.round((total.costUsd + usage.costUsd) * 1e6) / 1e6,
  };
}

/** Tokens that count against the job's budget: everything sent and received. */
export const tokensSpent = (u: UsageTotals) =>
  u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens;

/** Exponential backoff from the failure's own timestamp, so the deadline is the same on replay. */
export function retryDeadline(settings: JobSettings, failure: EffectFailure, count: number): number {
  const delay = Math.min(settings.retryCapMs, settings.retryBaseMs * 2 ** count);
  return failure.at + delay;
}

/** Merges newly applied changes into the cumulative set, one entry per path. */
export function mergeChanges(existing: FileChange[], applied: FileChange[]): FileChange[] {
  const byPath = new Map(existing.map((c) => [c.path, c]));
  for (const change of applied) byPath.set(change.path, change);
  return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** An effect's rejection as a failure record, whatever shape it arrived in. */
export function asFailure(error: unknown): EffectFailure {
  const e = (error ?? {}) as Partial<EffectFailure>;
  return {
    src: typeof e.src === 'string' ? e.src : 'unknown',
    code: typeof e.code === 'string' ? e.code : 'BOOTY_E_EFFECT_FAILED',
    message: typeof e.message === 'string' ? e.message : String(error),
    retryable: e.retryable === true,
    at: typeof e.at === 'number' ? e.at : 0,
  };
}
