import type { TestRun } from '../events/effect-results.js';
import { progressMarker } from '../forges/markers.js';
import { qualityBlocks } from '../machines/attempt-progress.js';
import type { JobSnapshot } from '../machines/fold.js';
import { type JobContext, jobView } from '../machines/job-context.js';
import { finalStates, type JobStateName, stateName } from '../machines/job-states.js';
import type { SandboxChoice } from '../sandbox/sandbox-mode.js';
import { attemptsSection, failingCount } from './attempt-report.js';
import { conversationSection } from './conversation-render.js';
import { atDollarCap, escalationLine, loopSection, trendSection } from './loop-render.js';
import { capBody, code, formatDuration } from './markdown-format.js';
import { usageLine } from './pr-body.js';
import { errorWords, failureSection, inWords, outcomeMessage } from './step-failure.js';
import { counts, qualityHold, qualityWords, sandboxWarning, weakEvidence } from './test-evidence.js';
import { failuresOf } from './test-failures.js';

// The progress comment's text: a pure function of the job's snapshot, so every replica of the
// reporter, before or after a restart, writes the same comment for the same point in the log.

export type StageMark =
  | 'done'
  | 'running'
  | 'failed'
  | 'warning'
  | 'held'
  | 'cancelled'
  | 'skipped'
  | 'pending';

export interface Stage {
  key: 'prepare' | 'baseline' | 'analyze' | 'generate' | 'test' | 'openPr' | 'promote';
  label: string;
  mark: StageMark;
  detail: string;
}

type Snapshot = Pick<JobSnapshot, 'value' | 'context'>;

export interface RenderOptions {
  /** The job's page in booty's job view, when people can reach it (BOOTY_PUBLIC_URL). */
  jobViewUrl?: string | null;
  /** The sandbox mode and who chose it, for the notice that the tests ran without bubblewrap. */
  sandbox?: SandboxChoice;
}

const icons: Record<StageMark, string> = {
  done: '✅',
  running: '⏳',
  failed: '❌',
  warning: '⚠️',
  held: '⏸️',
  cancelled: '🚫',
  skipped: '➖',
  pending: '⬜',
};

/** The checklist stage a running state is at; null for the final states. */
const stageOfState: Record<JobStateName, number | null> = {
  preparing: 0,
  baselining: 1,
  analyzing: 2,
  postingPlan: 2,
  awaitingApproval: null,
  generating: 3,
  applying: 3,
  refining: 3,
  testing: 4,
  openingPr: 5,
  budgetExhausted: null,
  escalating: null,
  promoting: 6,
  prOpened: null,
  promoted: null,
  checkingCi: null,
  demoting: null,
  rerunningCi: null,
  syncing: null,
  applyingSuggestions: null,
  answering: null,
  answeringQuestion: null,
  answered: null,
  merged: null,
  closed: null,
  failed: null,
  cancelled: null,
};

const stageOfStep: Record<string, number> = {
  prepare: 0,
  runBaseline: 1,
  analyze: 2,
  generate: 3,
  refine: 3,
  applyChanges: 3,
  runTests: 4,
  openPr: 5,
  promotePr: 6,
};

/** How far a job got, read from what it recorded: for a cancel or a failure without a step. */
function reached(ctx: JobContext): number {
  if (ctx.pr) return 6;
  const last = ctx.attempts[ctx.attempts.length - 1];
  if (last && last.n === ctx.attempt) {
    if (last.test) return 5;
    if (last.files.length > 0) return 4;
    return 3;
  }
  if (ctx.attempt > 0) return 3;
  if (ctx.baseline) return 2;
  if (ctx.workspace) return 1;
  return 0;
}

export function progressStages(snapshot: Snapshot): Stage[] {
  const ctx = jobView(snapshot.context);
  const state = stateName(snapshot);
  const marks: StageMark[] = Array(7).fill('pending');
  const fill = (upTo: number, mark: StageMark, after: StageMark) => {
    for (let i = 0; i < 7; i++) marks[i] = i < upTo ? 'done' : i === upTo ? mark : after;
  };
  const outcome = ctx.outcome?.reason;
  const running = stageOfState[state];
  // Once the PR is open, the stages are done or held as the PR stands; rounds show below them.
  const withPr = ctx.pr !== null && state !== 'prOpened' && state !== 'cancelled';
  if (running !== null) fill(running, 'running', 'pending');
  // Parked for a writer: the plan's approval, or `@booty continue` at the budget.
  else if (state === 'awaitingApproval') fill(2, 'held', 'pending');
  else if (state === 'budgetExhausted') fill(ctx.proposal ? 3 : reached(ctx), 'held', 'pending');
  else if (state === 'promoted' || (withPr && ctx.pr?.draft === false)) fill(7, 'done', 'done');
  else if (withPr && ctx.conversation.headTested) fill(6, 'held', 'skipped');
  // A draft that waits: held for a human or for CI, or left draft when promotion failed.
  else if (
    state === 'prOpened' &&
    (!outcome || outcome === 'self-modification' || outcome === 'tests-passed')
  )
    fill(6, 'held', 'skipped');
  else if (state === 'prOpened' && outcome === 'promotion-failed') fill(6, 'warning', 'skipped');
  else if (state === 'cancelled') fill(reached(ctx), 'cancelled', 'skipped');
  else if (
    outcome === 'test-command-broken' ||
    outcome === 'test-command-timeout' ||
    (outcome === 'tests-unreadable' && ctx.baseline?.broken)
  )
    fill(1, 'failed', 'skipped');
  else if (
    outcome === 'tests-failing' ||
    outcome === 'tests-unknown' ||
    outcome === 'tests-unreadable' ||
    outcome === 'stalled'
  ) {
    fill(6, 'skipped', 'skipped');
    marks[4] = 'failed';
  } else fill(ctx.error ? (stageOfStep[ctx.error.step] ?? reached(ctx)) : reached(ctx), 'failed', 'skipped');

  // The checklist is the first loop's: a round's attempts are told with the round.
  const firstRound = ctx.conversation.rounds.find((r) => r.result !== 'answered');
  const firstLoop = firstRound ? Math.min(ctx.attempt, firstRound.firstAttempt - 1) : ctx.attempt;
  const attempt = firstLoop > 0 ? `attempt ${firstLoop} of ${ctx.maxAttempts}` : '';
  const baseline = ctx.baseline;
  const test = ctx.lastTest;
  const failing = test ? failingCount(test) : 0;
  const stages: Omit<Stage, 'mark'>[] = [
    {
      key: 'prepare',
      label: 'Prepare the workspace',
      detail: ctx.workspace ? `from ${code(ctx.workspace.defaultBranch)}` : '',
    },
    {
      key: 'baseline',
      label: 'Run the tests before the change',
      detail: baseline ? baselineDetail(baseline) : '',
    },
    { key: 'analyze', label: 'Analyze the issue', detail: '' },
    {
      key: 'generate',
      label: firstLoop > 1 ? 'Refine the change' : 'Generate the change',
      detail: attempt,
    },
    {
      key: 'test',
      label: 'Run the tests',
      detail: test
        ? test.passed
          ? `passed${test.evidence === 'exit-code' ? ' on the exit status alone (weak evidence)' : ''} in ${formatDuration(test.durationMs)} (${counts(test)})`
          : qualityBlocks(test).length
            ? `passed (${counts(test)}); held back by quality: ${qualityWords(qualityBlocks(test))}`
            : test.verdict === 'unknown'
              ? `not proven: ${test.reasons?.[0]?.message ?? 'no result booty could read'}`
              : `${failing} failing${test.timedOut ? ', timed out' : ''} (${counts(test)})`
        : '',
    },
    {
      key: 'openPr',
      label: 'Open a draft pull request',
      detail: ctx.pr ? `[#${ctx.pr.number}](${ctx.pr.url})` : '',
    },
    {
      key: 'promote',
      label: 'Mark it ready for review',
      detail:
        outcome === 'self-modification'
          ? 'held as draft: a human must review a change to booty itself'
          : outcome === 'promotion-failed'
            ? 'failed; the pull request stays draft'
            : '',
    },
  ];
  return stages.map((s, i) => {
    const mark = marks[i]!;
    // A stage still ahead says nothing, except the tests, whose last run explains a refinement.
    const detail =
      mark !== 'pending' ? s.detail : s.key === 'test' && s.detail ? `last run: ${s.detail}` : '';
    return { ...s, mark, detail };
  });
}

const WORKING = '⏳ booty is working on this issue';
const headlines: Record<JobStateName, (ctx: JobContext) => string> = {
  preparing: () => WORKING,
  baselining: () => WORKING,
  analyzing: () => WORKING,
  postingPlan: () => WORKING,
  awaitingApproval: () => '⏸️ booty planned the change and waits for a writer’s approval',
  generating: () => WORKING,
  applying: () => WORKING,
  testing: () => WORKING,
  refining: () => WORKING,
  openingPr: () => WORKING,
  budgetExhausted: (ctx) =>
    `⏸️ booty reached this job’s ${atDollarCap(ctx) ? 'dollar' : 'token'} budget and waits for \`@booty continue\``,
  escalating: () => '⏳ booty is asking for help',
  promoting: () => WORKING,
  prOpened: (ctx) =>
    ctx.request.onPr
      ? `⏸️ booty worked on @${ctx.request.onPr.author}'s draft pull request and waits for what is asked next`
      : ctx.outcome?.reason === 'self-modification'
        ? '⏸️ booty opened a draft pull request for a human to review'
        : ctx.outcome?.reason === 'promotion-failed'
          ? '⚠️ booty opened a draft pull request but could not mark it ready'
          : ctx.conversation.headTested
            ? '⏳ booty opened a draft pull request and waits for CI'
            : ctx.outcome?.reason === 'stalled'
              ? '⏸️ booty opened a draft pull request; its attempts stopped improving'
              : ctx.outcome?.reason === 'tests-unreadable'
                ? '⏸️ booty opened a draft pull request; it cannot read whether its tests pass'
                : qualityHold(ctx)
                  ? '⏸️ booty opened a draft pull request; a quality command holds it back'
                  : ctx.outcome?.reason === 'tests-failing' || ctx.outcome?.reason === 'tests-unknown'
                    ? '⏸️ booty opened a draft pull request; its tests do not pass yet'
                    : '⏸️ booty opened a draft pull request with its work so far; it stopped before the tests passed',
  promoted: (ctx) =>
    ctx.request.onPr
      ? `✅ booty worked on @${ctx.request.onPr.author}'s pull request and waits for what is asked next`
      : '✅ booty opened a pull request, ready for review',
  checkingCi: () => '⏳ booty is reading CI on its pull request',
  demoting: () => '⏳ CI failed: booty is turning its pull request back to draft',
  rerunningCi: () => '⏳ CI failed: booty re-runs the failed jobs once',
  syncing: () => '⏳ booty is working on its pull request',
  applyingSuggestions: () => '⏳ booty is applying the suggestions on its pull request',
  answering: () => '⏳ booty is answering on its pull request',
  answeringQuestion: () => '⏳ booty is reading the code to answer a question',
  answered: () => '💬 booty answered the question; nothing was changed',
  merged: () => '🎉 the pull request was merged',
  closed: () => '🚫 the pull request was closed without merging',
  failed: () => '❌ booty could not finish this issue',
  cancelled: () => '🚫 booty stopped working on this issue',
};

function baselineDetail(baseline: TestRun): string {
  if (baseline.broken) return baseline.broken.message;
  const failing = failuresOf(baseline).tests.length;
  const named = failing
    ? `${failing} already failing`
    : baseline.exitCode === 0
      ? 'all passing'
      : `exited ${baseline.exitCode ?? 'abnormally'} and named no failing test`;
  return baseline.totals ? `${named} (${counts(baseline)})` : named;
}

export function renderProgress(snapshot: Snapshot, options: RenderOptions = {}): string {
  const ctx = jobView(snapshot.context);
  const state = stateName(snapshot);
  const final = stageOfState[state] === null;
  const parts: string[] = [progressMarker(ctx.jobId), `### ${headlines[state](ctx)}`];
  if (ctx.outcome) parts.push(outcomeMessage(ctx));
  if (ctx.outcome?.reason === 'self-modification') {
    parts.push(
      '> [!WARNING]\n> This change modifies booty itself, so a human must review it: the pull request stays a draft.',
    );
  }

  // A job asked only a question ran none of the stages, and one on someone else's pull request
  // neither analyzed nor opened it: their checklist would say nothing true.
  const noStages =
    ctx.request.onPr !== null || (ctx.request.ask?.kind === 'question' && ctx.attempts.length === 0);
  if (!noStages)
    parts.push(
      progressStages(snapshot)
        .map((s) => `- ${icons[s.mark]} ${s.label}${s.detail ? ` — ${s.detail}` : ''}`)
        .join('\n'),
    );

  // A draft waiting with work that did not pass says why, as a failed job does.
  const failed =
    state === 'failed' ||
    ctx.outcome?.reason === 'promotion-failed' ||
    (state === 'prOpened' && !!ctx.outcome && ctx.outcome.reason !== 'tests-passed');
  const facts: string[] = [];
  if (ctx.pr)
    facts.push(
      `**Pull request:** [#${ctx.pr.number}](${ctx.pr.url}) (${ctx.pr.draft ? 'draft' : 'ready for review'})`,
    );
  if (state === 'failed') facts.push(`**Branch:** ${code(ctx.branch)}`);
  const read = ctx.workspace?.instructions ?? [];
  if (read.length)
    facts.push(
      `**The repository's instructions read:** ${read.map((f) => code(f.path)).join(', ')} (from the default branch)`,
    );
  facts.push(`**Model usage:** ${usageLine(ctx.usage)}`);
  const escalated = escalationLine(ctx);
  if (escalated) facts.push(escalated);
  if (ctx.retry && !final && ctx.error) {
    facts.push(
      `**Retrying:** ${inWords(ctx.error.step).toLowerCase()} failed (retry ${ctx.retry.count} of ${ctx.settings.maxRetries}): ${errorWords(ctx.error.step, ctx.error.message)}`,
    );
  }
  if (options.jobViewUrl) facts.push(`**Every step, live:** [the job view](${options.jobViewUrl})`);
  parts.push(facts.join('  \n'));

  const warning = sandboxWarning([ctx.baseline, ctx.lastTest], options.sandbox);
  if (warning) parts.push(warning);
  const weak = ctx.lastTest?.passed ? weakEvidence(ctx.lastTest) : null;
  if (weak) parts.push(weak);
  // Every attempt keeps its own failure: the first one's is often the one that explains the rest.
  const shown = ctx.attempts.some((a) => a.rejected.length > 0 || (a.test && !a.test.passed));
  if (ctx.attempts.length > 1 || shown)
    parts.push(attemptsSection(ctx.attempts, ctx.maxAttempts, !final, ctx.conversation.rounds));
  const trend = trendSection(ctx);
  if (trend) parts.push(trend);
  const loop = loopSection(ctx, state);
  if (loop) parts.push(loop);
  if (failed) {
    const why = failureSection(ctx);
    if (why) parts.push(why);
  }
  // Until the job ends, the comment is the PR's control panel; then it keeps the rounds' record.
  const ended = (finalStates as readonly string[]).includes(state);
  const conversation = conversationSection(ctx, state, ended);
  if (conversation) parts.push(conversation);
  parts.push(`<sub>booty job ${code(ctx.jobId)}</sub>`);
  return capBody(parts.join('\n\n'));
}
