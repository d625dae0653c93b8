import type { Analysis } from '../events/effect-results.js';
import { attemptTrend, improvementRule } from '../machines/attempt-progress.js';
import { type JobContext, tokensSpent, usdBaseOf, usdCapOf } from '../machines/job-context.js';
import type { JobStateName } from '../machines/job-states.js';
import { code } from './markdown-format.js';

// The refine loop's checkpoints as people read them: the plan waiting for approval, the budget a
// job stopped at, the trend across attempts, and who was asked for help. Pure, like the rest of
// the progress comment.

const n = (x: number) => x.toLocaleString('en-US');

/** The analysis as a plan a writer can approve. */
export function planText(a: Analysis): string {
  const list = (title: string, items: string[]) =>
    items.length ? `**${title}:**\n${items.map((i) => `- ${i}`).join('\n')}` : '';
  return [
    `**Plan (${a.changeKind}):** ${a.summary}`,
    list('Files to change', a.filesToChange.map(code)),
    list('Tests to add', a.testsToAdd.map(code)),
    list('Acceptance criteria', a.acceptanceCriteria),
    list('Risks', a.risks),
  ]
    .filter(Boolean)
    .join('\n\n');
}

export const PLAN_COMMANDS =
  'A writer answers on the issue: `@booty approve` to go ahead, `@booty revise <what to change>` to plan again with that, or `@booty cancel`.';

/** Where `@booty continue` resumes a job parked at its budget, in words. */
function resumeWords(ctx: JobContext): string {
  const step = ctx.error?.code === 'BOOTY_E_BUDGET_EXCEEDED' ? ctx.error.step : null;
  if (step === 'analyze') return 'analyzing the issue again';
  if (step === 'generate' || step === 'refine') return `writing attempt ${ctx.attempt} again`;
  if (ctx.proposal) return `applying attempt ${ctx.attempt}, already paid for`;
  return 'writing the first attempt';
}

/** The job stopped at its dollar cap (not its token budget): its request could not be paid for, or its answer went over. */
export function atDollarCap(ctx: JobContext): boolean {
  const usd = usdCapOf(ctx);
  if (usd === null) return false;
  if (ctx.settings.maxTokens === null || ctx.usage.costUsd > usd) return true;
  return ctx.error?.code === 'BOOTY_E_BUDGET_EXCEEDED' && ctx.error.message.includes('budget of $');
}

export function budgetSection(ctx: JobContext): string {
  if (atDollarCap(ctx))
    return [
      `**Budget:** booty spent $${ctx.usage.costUsd.toFixed(4)} (${n(tokensSpent(ctx.usage))} tokens) of this job's $${usdCapOf(ctx)}, and stopped before ${resumeWords(ctx)}.`,
      `A writer's \`@booty continue\` raises the budget by $${usdBaseOf(ctx)} and resumes there; \`@booty cancel\` ends the job.`,
    ].join('  \n');
  const max = ctx.settings.maxTokens ?? 0;
  const step = ctx.settings.budgetStep ?? max;
  return [
    `**Budget:** booty spent ${n(tokensSpent(ctx.usage))} tokens ($${ctx.usage.costUsd.toFixed(4)}) of this job's ${n(max)}, and stopped before ${resumeWords(ctx)}.`,
    `A writer's \`@booty continue\` raises the budget by ${n(step)} tokens and resumes there; \`@booty cancel\` ends the job.`,
  ].join('  \n');
}

/**
 * The attempts of the last loop side by side: tests, new failures against the baseline, the diff,
 * and the trend. A round is a loop of its own: its first attempt is compared with nothing before it.
 */
export function trendSection(ctx: JobContext): string | null {
  const from = ctx.conversation.rounds.findLast((r) => r.result !== 'answered')?.firstAttempt ?? 1;
  if (ctx.attempts.filter((a) => a.n >= from).length < 2) return null;
  const quality = ctx.request.qualityProgress;
  // The quality column only where a quality command ran after an attempt's tests.
  const linted = quality && ctx.attempts.some((a) => a.n >= from && a.test?.quality);
  const trend = attemptTrend(ctx.attempts, from, { quality }).filter((p) => p.n >= from);
  const rows = trend.map((p) => {
    const cell = (x: number | null) => (x === null ? '–' : String(x));
    const mark = p.improved === null ? '' : p.improved ? '↗ better' : '→ no better';
    const findings = linted ? ` ${cell(p.qualityFindings)} |` : '';
    return `| ${p.n - from + 1} | ${cell(p.passed)} | ${cell(p.failed)} | ${cell(p.newFailures)} |${findings} ${p.diffLines} | ${mark} |`;
  });
  const after = ctx.config?.stallAfter;
  const round = ctx.conversation.rounds.find((r) => r.firstAttempt === from && r.result !== 'answered');
  return [
    round ? `**Trend in round ${round.n}:**` : '**Trend:**',
    '',
    `| attempt | passed | failing | new failures |${linted ? ' new quality findings |' : ''} lines changed | |`,
    `|---|---|---|---|${linted ? '---|' : ''}---|---|`,
    ...rows,
    ...(after === undefined
      ? []
      : [
          '',
          `<sub>An attempt is better when it has ${improvementRule(quality)}; booty stops after ${after} in a row that are not.</sub>`,
        ]),
  ].join('\n');
}

export function escalationLine(ctx: JobContext): string | null {
  const e = ctx.checkpoints.escalation;
  if (!e) return null;
  const asked = [...e.users.map((u) => `@${u}`), ...e.teams.map((t) => `@${t}`)];
  // GitLab's adapter names the people in a note; GitHub asks them for a review or assigns them.
  const how =
    ctx.repo.forge === 'gitlab'
      ? `asked for help on the ${e.on === 'pr' ? 'draft merge request' : 'issue'}`
      : e.on === 'pr'
        ? 'asked to review the draft'
        : 'assigned the issue';
  const refused = e.refused.length
    ? ` (GitHub refused ${e.refused.map((r) => `${code(r.name)}: ${r.reason}`).join('; ')})`
    : '';
  return `**Escalated:** ${asked.length ? asked.join(', ') : 'nobody'} ${how}${refused}.`;
}

/**
 * The comment that asks for help: whom, and with what. Why the job gave up, and what each attempt
 * showed, is told once, in the progress comment, which this links rather than repeats.
 */
export function escalationComment(e: { asked: string[]; where: string; progressUrl: string | null }): string {
  const who = e.asked.length ? e.asked.map((n) => `@${n}`).join(', ') : 'Nobody could be asked';
  const there = e.progressUrl
    ? `[booty's progress comment](${e.progressUrl})`
    : "booty's progress comment on this issue";
  return `${who}: booty gave up on this issue and asks for your help with ${e.where}.\n\nWhy it stopped, and what each attempt showed: ${there}.`;
}

/** The section a state of the loop adds to the progress comment, if any. */
export function loopSection(ctx: JobContext, state: JobStateName): string | null {
  if (state === 'awaitingApproval' && ctx.analysis) return `${planText(ctx.analysis)}\n\n${PLAN_COMMANDS}`;
  if (state === 'budgetExhausted') return budgetSection(ctx);
  return null;
}
