import type { CommandWord, FeedbackPlace, ReviewComment } from '../events/conversation-events.js';
import type {
  Analysis,
  CiFailure,
  CiRead,
  CodeReference,
  EffectFailure,
  EffectName,
  Escalated,
  FailureClass,
  FileChange,
  Generated,
  Instruction,
  IssueComment,
  PullRequest,
  Rejection,
  RepoConfig,
  SuggestionApplied,
  SuggestionSkipped,
  TestRun,
  Usage,
} from '../events/effect-results.js';
import type { IssueRef, JobRequested, JobSettings, RepoRef } from '../events/job-events.js';
import type { Ask, PersonPr } from '../events/mention-events.js';

// Everything a job knows. Plain JSON only: it is rebuilt by folding the log, and handed whole to
// effects as their input (as a JobContext view), so an effect never needs state outside the log.

export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
}

/** One attempt's whole story: what the model proposed, what the path policy let through, and the tests. */
export interface AttemptRecord {
  n: number;
  explanation: string;
  proposed: FileChange[];
  /** Paths written, once applied. */
  files: string[];
  rejected: Rejection[];
  /** Test files among the applied changes: they must pass. */
  addedTests: string[];
  applied: boolean;
  /** null until tested, and for good when the attempt applied nothing. */
  test: TestRun | null;
  /** Why it failed, as its apply or test event recorded it; absent in logs from before the classes. */
  failureClass?: FailureClass;
  /** The earlier attempt the model's answer repeated: nothing was applied or tested (Generated). */
  repeated?: number;
}

export type OutcomeReason =
  | 'tests-passed'
  | 'self-modification'
  | 'promotion-failed'
  | 'tests-failing'
  | 'tests-unknown'
  | 'tests-unreadable'
  | 'test-command-broken'
  | 'test-command-timeout'
  | 'no-changes'
  | 'stalled'
  | 'policy'
  | 'environment'
  | 'budget'
  | 'error'
  | 'unlabeled'
  | 'closed'
  | 'operator'
  | 'command'
  | 'merged'
  | 'pr-closed';

export interface Outcome {
  reason: OutcomeReason;
  message: string;
}

/**
 * What a follow-up round answers: people's feedback, a writer's `@booty retry`, red CI, or a
 * writer's question (a round of its own, answered and never committed).
 */
export type RoundTrigger =
  | {
      kind: 'feedback';
      place: FeedbackPlace;
      author: string;
      body: string;
      commentId: number;
      comments: ReviewComment[];
      mention: boolean;
    }
  | { kind: 'command'; command: CommandWord; place: FeedbackPlace; author: string; commentId: number }
  | { kind: 'ci'; sha: string; failing: CiFailure[] }
  | { kind: 'question'; place: FeedbackPlace; author: string; body: string; commentId: number };

/** One round of work after the PR opened. */
export interface Round {
  n: number;
  triggers: RoundTrigger[];
  /** The attempt its first generation runs as: the refine bound counts from here. */
  firstAttempt: number;
  /** The branch head it builds on, humans' commits included, once synced. */
  base: string | null;
  /** null while it runs; a round of questions ends `answered`. */
  result: 'pushed' | 'not-pushed' | 'stopped' | 'answered' | null;
  commit: string | null;
  /** Why nothing was pushed. */
  note: string | null;
  /** A round of questions: what booty replied, at the commit it read, and the lines it rests on. */
  answer?: { text: string; commit: string; references: CodeReference[]; answered: boolean };
  /** `@booty apply suggestions` (machine 9): the suggestion blocks applied as written, and those left. */
  suggestions?: { applied: SuggestionApplied[]; skipped: SuggestionSkipped[] };
  /** Who stopped the round with `@booty stop`: their command hears back with the round's answer. */
  stoppedBy?: { author: string; commentId: number; place: FeedbackPlace };
}

/** The job's life with its open PR: rounds, CI, and the bounds on both. */
export interface Conversation {
  rounds: Round[];
  /** Feedback that arrived while the job was busy: the next round takes all of it. */
  inbox: RoundTrigger[];
  /** CI on the PR's head, as last read. */
  ci: Omit<CiRead, 'at'> | null;
  /** booty's own tests passed on the work at the PR's head. */
  headTested: boolean;
  /** Heads whose failed CI jobs were re-run once, to rule out a flaky check. */
  reruns: string[];
  /** CI finished on the head while the job was busy: it reads CI when it is free. */
  ciStale: boolean;
  /** Extra rounds a writer's `@booty` allowed past a bound. */
  lifted: { followUps: number; ciFixes: number };
  /** The bound that kept the last round from starting, until a writer lifts it. */
  bounded: 'followUps' | 'ciFixes' | null;
  /** The commit the job's first change was built on: the PR's whole diff starts there. */
  firstBase: string | null;
  /** Who turned the PR back to draft: booty leaves it draft until someone marks it ready. */
  heldDraft: string | null;
}

/** The loop's human checkpoints: the plan's approval, and who was asked for help. */
export interface Checkpoints {
  /** Plans posted for approval: a revision analyses again and posts another. */
  plans: number;
  /** The writer who approved the plan, once one did. */
  approvedBy: string | null;
  /** Who the job asked for help when it gave up, once it did. */
  escalation: Escalated | null;
}

/** The last failure of a step, and when it is retried: the retry deadline survives a restart. */
export interface StepError {
  step: string;
  code: string;
  message: string;
  /** Retries of this step so far. */
  retries: number;
  /** When the next try may start (epoch ms), or null when there is none. */
  notBefore: number | null;
}

/**
 * The machine's context: everything a job knows, as plain JSON rebuilt by folding the log. It is
 * kept to 19 fields on purpose: XState copies the context with Object.assign on every update, and
 * V8 turns objects of more than 19 properties made that way into slow dictionaries, which made
 * every step of a replay several times slower. What can be derived is derived (see jobView).
 */
export interface JobState {
  jobId: string;
  repo: RepoRef;
  issue: IssueRef & { comments: IssueComment[] };
  /** Who asked and how, fixed when the job was requested. */
  request: {
    triggerLabel: string;
    sender: string;
    deliveryId: string;
    installationId: number | null;
    requestedAt: number;
    run: number;
    previous: JobRequested['previous'];
    /** The issue carried the `booty:plan` label. */
    planApproval: boolean;
    /** The refine loop's controls apply (machine 5); false for jobs requested before them. */
    loopControls: boolean;
    /** New quality findings count as improvement (machine 6); false for jobs requested before. */
    qualityProgress: boolean;
    /** A writer's `@booty` started the job: what they asked (machine 8). */
    ask: Ask | null;
    /** The pull request someone else opened that the job works on (machine 8). */
    onPr: PersonPr | null;
    /** booty's rules as a collaborator apply (machine 8); false for jobs requested before. */
    collaborator: boolean;
    /** A push's delivery is not read for the draft state (machine 9); false for jobs requested before. */
    draftByAction: boolean;
  };
  settings: JobSettings;
  branch: string;
  /** The attempt under way: 0 before the first generation. */
  attempt: number;
  /** The clone's base, and the repository's instructions for agents read when it was prepared. */
  workspace: { baseSha: string; defaultBranch: string; instructions?: Instruction[] } | null;
  config: RepoConfig | null;
  baseline: TestRun | null;
  analysis: Analysis | null;
  /** Every change applied so far, one entry per path, latest content wins. */
  changes: FileChange[];
  attempts: AttemptRecord[];
  pr: PullRequest | null;
  usage: UsageTotals;
  error: StepError | null;
  outcome: Outcome | null;
  conversation: Conversation;
  checkpoints: Checkpoints;
}

/** What effects and renderers read: the state with its derived facts spelled out. */
export interface JobContext extends JobState {
  triggerLabel: string;
  sender: string;
  deliveryId: string;
  installationId: number | null;
  requestedAt: number;
  comments: IssueComment[];
  /** From the repository config once it is read; the job settings until then. */
  maxAttempts: number;
  /** The latest test run of an attempt. */
  lastTest: TestRun | null;
  /** Test files the job added or changed, over all attempts. */
  addedTests: string[];
  /** The model's latest proposal, waiting for the path policy. */
  proposal: Pick<Generated, 'changes' | 'explanation'> | null;
  retry: { step: EffectName; count: number; notBefore: number } | null;
  /** The follow-up round under way, if any. */
  round: Round | null;
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

/**
 * The job's dollar cap before any `@booty continue`: the operator's, lowered by booty.yml's
 * `maxUsd` (which cannot raise it); null when neither sets one.
 */
export function usdBaseOf(s: Pick<JobState, 'config' | 'settings'>): number | null {
  const caps = [s.settings.maxUsd, s.config?.maxUsd].filter((c): c is number => typeof c === 'number');
  return caps.length > 0 ? Math.min(...caps) : null;
}

/** The dollars the job may spend on the model now: the base cap and what continues added; null for none. */
export function usdCapOf(s: Pick<JobState, 'config' | 'settings'>): number | null {
  const base = usdBaseOf(s);
  return base === null ? null : roundMicros(base + (s.settings.usdAdded ?? 0));
}

const roundMicros = (usd: number) => Math.round(usd * 1e6) / 1e6;

export const maxAttemptsOf = (s: Pick<JobState, 'config' | 'settings'>) =>
  s.config?.maxAttempts ?? s.settings.maxAttempts;

export const lastTestOf = (s: Pick<JobState, 'attempts'>): TestRun | null =>
  s.attempts.findLast((a) => a.test !== null)?.test ?? null;

export function jobView(state: JobState): JobContext {
  const current = state.attempts.at(-1);
  const { error } = state;
  return {
    ...state,
    ...state.request,
    comments: state.issue.comments,
    maxAttempts: maxAttemptsOf(state),
    lastTest: lastTestOf(state),
    addedTests: [...new Set(state.attempts.flatMap((a) => a.addedTests))].sort(),
    proposal:
      current && !current.applied ? { changes: current.proposed, explanation: current.explanation } : null,
    retry:
      error?.notBefore != null
        ? { step: error.step as EffectName, count: error.retries, notBefore: error.notBefore }
        : null,
    round: currentRound(state),
  };
}

export const emptyConversation: Conversation = {
  rounds: [],
  inbox: [],
  ci: null,
  headTested: false,
  reruns: [],
  ciStale: false,
  lifted: { followUps: 0, ciFixes: 0 },
  bounded: null,
  firstBase: null,
  heldDraft: null,
};

/** The round under way, or null between rounds and before the PR opened. */
export const currentRound = (s: Pick<JobState, 'conversation'>): Round | null => {
  const last = s.conversation.rounds.at(-1);
  return last && last.result === null ? last : null;
};

/**
 * A round pushes only work whose tests it saw pass: a PR is never made worse by booty. A writer's
 * suggestions are theirs, pushed as written when they asked for them.
 */
export const roundPushable = (job: Pick<JobContext, 'round' | 'lastTest' | 'changes'>) =>
  job.round !== null &&
  job.round.note === null &&
  (job.lastTest?.passed === true || job.round.suggestions !== undefined) &&
  job.changes.length > 0;

/** The attempt's number within its round (the first run is round 0, from attempt 1). */
export const roundAttempt = (s: Pick<JobState, 'attempt' | 'conversation'>) =>
  s.attempt - (currentRound(s)?.firstAttempt ?? 1) + 1;

export const zeroUsage: UsageTotals = {
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd: 0,
};

export function initialContext(input: JobRequested): JobState {
  return {
    jobId: input.jobId,
    repo: input.repo,
    issue: { ...input.issue, comments: [] },
    request: {
      triggerLabel: input.triggerLabel,
      sender: input.sender,
      deliveryId: input.deliveryId,
      installationId: input.installationId,
      requestedAt: input.requestedAt,
      run: input.run ?? 1,
      previous: input.previous ?? null,
      planApproval: input.planApproval ?? false,
      loopControls: input.loopControls ?? true,
      qualityProgress: input.qualityProgress ?? true,
      ask: input.ask ?? null,
      onPr: input.onPr ?? null,
      collaborator: input.collaborator ?? true,
      draftByAction: input.draftByAction ?? true,
    },
    settings: input.settings,
    // On someone else's pull request, the job's commits go on top of its branch.
    branch: input.onPr?.headRef ?? branchName(input.issue, input.run ?? 1),
    attempt: 0,
    workspace: null,
    config: null,
    baseline: null,
    analysis: null,
    changes: [],
    attempts: [],
    pr: input.onPr ? personPr(input.onPr, input.requestedAt) : null,
    usage: zeroUsage,
    error: null,
    outcome: null,
    conversation: input.onPr || input.ask?.kind === 'question' ? askedFirst(input) : emptyConversation,
    checkpoints: { plans: 0, approvedBy: null, escalation: null },
  };
}

/** Someone else's pull request as the job keeps its own: never made ready or draft by booty. */
const personPr = (pr: PersonPr, at: number): PullRequest => ({
  at,
  number: pr.number,
  url: pr.url,
  nodeId: pr.nodeId,
  draft: pr.draft,
  headSha: pr.headSha,
  created: false,
});

/**
 * A job a writer asked on a pull request, or with a question, starts with what they asked waiting:
 * a question is answered first thing, and a change to someone else's pull request is its first
 * round. A change asked on an issue is the issue's own work (its comments carry the words).
 */
function askedFirst(input: JobRequested): Conversation {
  const ask = input.ask;
  const inbox: RoundTrigger[] = !ask
    ? []
    : ask.kind === 'question'
      ? [{ kind: 'question', place: ask.place, author: ask.author, body: ask.body, commentId: ask.commentId }]
      : [
          {
            kind: 'feedback',
            place: ask.place,
            author: ask.author,
            body: ask.body,
            commentId: ask.commentId,
            comments: [],
            mention: true,
          },
        ];
  return { ...emptyConversation, inbox };
}

/** `booty/issue-12-add-parser`, and `booty/issue-12-r2-add-parser` for the issue's second job. */
export function branchName(issue: Pick<IssueRef, 'number' | 'title'>, run = 1): string {
  const slug = issue.title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return `booty/issue-${issue.number}${run > 1 ? `-r${run}` : ''}${slug ? `-${slug}` : ''}`;
}

export function effectInput(state: JobState, step: EffectName): EffectInput {
  return {
    key: `${state.jobId}:${step}:${state.attempt}${roundKey(state, step)}`,
    step,
    attempt: state.attempt,
    notBefore: state.error?.step === step ? state.error.notBefore : null,
    job: jobView(state),
  };
}

/**
 * The steps of a PR's life run many times at one attempt (CI is read after every change): their
 * key also names the round and, for CI, the head, so each run has its own.
 */
function roundKey(state: JobState, step: EffectName): string {
  const c = state.conversation;
  if (step === 'readCi' || step === 'rerunCi' || step === 'demotePr' || step === 'promotePr')
    return `:${state.pr?.headSha ?? ''}`;
  if (
    step === 'syncBranch' ||
    step === 'answerRound' ||
    step === 'answerQuestion' ||
    step === 'applySuggestions'
  )
    return `:r${c.rounds.length}`;
  // A revised plan is a new plan: its own comment.
  if (step === 'postPlan') return `:p${state.checkpoints.plans + 1}`;
  return '';
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

/**
 * Exponential backoff from the failure's own timestamp, so the deadline is the same on replay; at
 * least the wait GitHub asked for, and never more than the cap: a step's retries wait at most
 * maxRetries × retryCapMs in all.
 */
export function retryDeadline(settings: JobSettings, failure: EffectFailure, count: number): number {
  const backoff = settings.retryBaseMs * 2 ** count;
  return failure.at + Math.min(settings.retryCapMs, Math.max(backoff, failure.retryAfterMs ?? 0));
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
    ...(typeof e.retryAfterMs === 'number' ? { retryAfterMs: e.retryAfterMs } : {}),
    ...(e.usage ? { usage: e.usage } : {}),
  };
}
