import type { JobSnapshot } from '../machines/fold.js';
import { stateName } from '../machines/job-states.js';
import type { HiddenRun, HiddenStatus } from './hidden-tests.js';

// What one task came to, and what a run came to. Everything here is a function of the job's log
// and the hidden run, so a replayed run writes the same bytes; wall times and job ids, which differ
// from run to run (job ids, the commits booty pushed, wall times), are kept apart (TaskRun).

/**
 * The gate's view of a task: promoted and resolved; promoted but the hidden tests fail (a false
 * promotion); resolved but left as a draft or without a PR (a missed promotion); or neither.
 */
export type GateOutcome = 'promoted-resolved' | 'false-promotion' | 'missed-promotion' | 'held-unresolved';

export interface TaskResult {
  id: string;
  tags: string[];
  resolved: boolean;
  promoted: boolean;
  gate: GateOutcome;
  /** The job's state when it stopped: promoted, prOpened (a draft waits), failed, ... */
  finalState: string;
  /** Why a job did not promote (`tests-failing`, `no-changes`, `stalled`, ...), else null. */
  reason: string | null;
  pr: { number: number; draft: boolean } | null;
  attempts: number;
  tokens: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
  costUsd: number;
  hidden: {
    command: string | null;
    problem: string | null;
    failToPass: Record<string, HiddenStatus>;
    passToPass: Record<string, HiddenStatus>;
  };
  /** The harness could not run the task (its repository, its patches); null when it ran. */
  error: string | null;
}

/** What differs from run to run: the job, the commit it pushed (its time is in it), wall times. */
export interface TaskRun {
  id: string;
  jobId: string | null;
  /** The commit the hidden tests ran on: the PR's head, else the base; null when none ran. */
  commit: string | null;
  /** From labeling the issue to the hidden tests' verdict. */
  wallMs: number;
  jobMs: number;
  hiddenMs: number;
}

export interface Totals {
  tasks: number;
  resolved: number;
  promoted: number;
  falsePromotions: number;
  missedPromotions: number;
  errors: number;
  /** resolved / tasks, to four places. */
  resolvedRate: number;
  tokens: number;
  costUsd: number;
  costPerTask: number;
}

const gateOf = (resolved: boolean, promoted: boolean): GateOutcome =>
  promoted
    ? resolved
      ? 'promoted-resolved'
      : 'false-promotion'
    : resolved
      ? 'missed-promotion'
      : 'held-unresolved';

export function taskResult(input: {
  id: string;
  tags: string[];
  snapshot: JobSnapshot;
  pr: { number: number; draft: boolean } | null;
  hidden: HiddenRun;
}): TaskResult {
  const { context } = input.snapshot;
  const finalState = stateName(input.snapshot);
  const promoted = finalState === 'promoted' && input.pr !== null && !input.pr.draft;
  const u = context.usage;
  const { resolved } = input.hidden;
  return {
    id: input.id,
    tags: input.tags,
    resolved,
    promoted,
    gate: gateOf(resolved, promoted),
    finalState,
    reason: context.outcome?.reason ?? null,
    pr: input.pr,
    attempts: context.attempt,
    tokens: {
      input: u.inputTokens,
      output: u.outputTokens,
      cacheRead: u.cacheReadTokens,
      cacheWrite: u.cacheWriteTokens,
      total: u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens,
    },
    costUsd: u.costUsd,
    hidden: {
      command: input.hidden.command,
      problem: input.hidden.problem,
      failToPass: input.hidden.failToPass,
      passToPass: input.hidden.passToPass,
    },
    error: null,
  };
}

/** A task the harness could not run: not resolved, not promoted, with the reason. */
export function failedTask(id: string, tags: string[], error: string, finalState = 'not-run'): TaskResult {
  return {
    id,
    tags,
    resolved: false,
    promoted: false,
    gate: 'held-unresolved',
    finalState,
    reason: null,
    pr: null,
    attempts: 0,
    tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    costUsd: 0,
    hidden: { command: null, problem: null, failToPass: {}, passToPass: {} },
    error,
  };
}

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

export function totalsOf(results: TaskResult[]): Totals {
  const count = (f: (r: TaskResult) => boolean) => results.filter(f).length;
  const tasks = results.length;
  const resolved = count((r) => r.resolved);
  const costUsd = round(
    results.reduce((s, r) => s + r.costUsd, 0),
    6,
  );
  return {
    tasks,
    resolved,
    promoted: count((r) => r.promoted),
    falsePromotions: count((r) => r.gate === 'false-promotion'),
    missedPromotions: count((r) => r.gate === 'missed-promotion'),
    errors: count((r) => r.error !== null),
    resolvedRate: tasks ? round(resolved / tasks, 4) : 0,
    tokens: results.reduce((s, r) => s + r.tokens.total, 0),
    costUsd,
    costPerTask: tasks ? round(costUsd / tasks, 6) : 0,
  };
}
