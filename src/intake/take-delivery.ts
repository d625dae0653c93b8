import { issueKey } from '../events/job-events.js';
import {
  type ConversationGate,
  type ConversationIntent,
  GONE_FORK,
  type Intent,
  type ReadDelivery,
  type WriterAnswer,
} from '../forges/forge.js';
import { isBootysOwn } from '../forges/markers.js';
import { type Intake, NOTHING_NEW, type SubmitResult } from './deliveries.js';

// A verified delivery, taken: a conversation event is checked with the forge first (may its writer
// steer booty, what a review says), then intake records and acts on it, then the writer hears back
// (👀, or why a command did nothing). The answer to the forge is decided here, in one place.

export interface TakeDeps {
  intake: Intake;
  /** What to ask the forge about a conversation event; absent, everyone may steer (tests). */
  conversation?: ConversationGate;
  countDelivery(outcome: string): void;
}

/** Where a delivery's troubles with the forge are told: the request's own logger. */
export interface Logger {
  warn(fields: object, message: string): void;
}

export interface Taken {
  result: SubmitResult;
  status: number;
  body: Record<string, unknown>;
}

/** The 👀 must land within the forge's wait for the webhook reply (10 s); past this booty stops waiting for it. */
const REACT_WAIT_MS = 3000;

export async function takeDelivery(read: ReadDelivery, deps: TakeDeps, log: Logger): Promise<Taken> {
  const { intake } = deps;
  const classified = read.intent;
  const intent =
    classified.kind === 'wake'
      ? await vetted(classified, deps, log)
      : classified.kind === 'cancel'
        ? await closedByMerge(classified, read.installationId, deps, log)
        : classified;
  const result =
    intent.kind === 'ignore'
      ? await intake.ignore(read.delivery, intent.reason)
      : await intake.submit(read.delivery, intent);
  deps.countDelivery(result.outcome);
  // A redelivery after a crash may find its event logged but never acknowledged: 👀 is idempotent.
  if ((result.outcome === 'woke' || result.outcome === 'duplicate') && intent.kind === 'wake')
    await acknowledge(intent as ConversationIntent, deps, log);
  // A job a writer's `@booty` started: their comment gets the 👀 the label's issue gets.
  if (result.outcome === 'created' && classified.kind === 'wake')
    await acknowledge(classified as ConversationIntent, deps, log);
  if (result.outcome === 'ignored' && intent.kind === 'wake')
    await answerIgnored(intent as ConversationIntent, result.reason, deps, log);
  // A redelivery is a duplicate and answers nothing; the forge's note is once per comment besides.
  if (result.outcome === 'ignored' && intent.kind === 'ignore' && intent.answer)
    await answerWriter(intent.answer, read.installationId, deps, log);
  return { result, ...replyFor(result, intent) };
}

/**
 * A conversation event, checked before the job hears it: a person who may not write to the
 * repository is answered and ignored, and a review carries its comments as the forge has them now.
 */
async function vetted(
  intent: ConversationIntent,
  deps: TakeDeps,
  log: Logger,
): Promise<ConversationIntent | Exclude<Intent, { kind: 'wake' }>> {
  const { conversation, intake } = deps;
  const { writer, installationId, reviewComments } = intent.needs;
  if (!conversation || !writer) return intent;
  const job = await intake.jobFor(intent.repo, intent.target);
  if (!job) return startedBy(intent, deps, log);
  // A review's comments are read before its author is checked: on GitHub booty's own reply in a
  // thread is a review of its own, and booty neither answers nor steers itself.
  const event = intent.event;
  if (reviewComments && event.type === 'FeedbackReceived') {
    const listed = await conversation.reviewComments(
      intent.repo,
      installationId,
      reviewComments.pr,
      reviewComments.reviewId,
    );
    const comments = listed.filter((c) => !isBootysOwn(c.body));
    if (!event.body.trim() && comments.length === 0)
      return { kind: 'ignore', reason: 'the review says nothing' };
    intent = { ...intent, event: { ...event, comments } };
  }
  if (!(await conversation.isWriter(intent.repo, installationId, writer))) {
    const commentId = intent.needs.react?.commentId ?? 0;
    await conversation
      .replyToReader(
        intent.repo,
        installationId,
        // Answered where they wrote: the PR, or the issue (a target without either is the PR's).
        intent.target.issue
          ? { issue: intent.target.issue }
          : { pr: intent.target.pr ?? job.pr, issue: job.issue },
        writer,
        commentId,
      )
      .catch((err: unknown) => log.warn({ err }, 'could not answer a reader'));
    return {
      kind: 'ignore',
      reason: `${writer} has no write access to ${intent.repo.owner}/${intent.repo.name}`,
    };
  }
  return intent;
}

/**
 * A writer's `@booty <request or question>` where no job waits starts one, as the label would: on
 * the issue, or on the pull request it was said on (its branch, read from the forge now). Only a
 * writer may; a reader hears why not. A change on a fork's pull request whose author does not let
 * maintainers edit it is answered with what booty needs.
 */
async function startedBy(
  intent: ConversationIntent,
  deps: TakeDeps,
  log: Logger,
): Promise<ConversationIntent | Exclude<Intent, { kind: 'wake' }>> {
  const none = { kind: 'ignore' as const, reason: 'no unfinished job for this pull request or issue' };
  const { conversation } = deps;
  const { start, writer, installationId } = intent.needs;
  const event = intent.event;
  if (!conversation || !writer || !start) return none;
  if (event.type !== 'FeedbackReceived' && event.type !== 'QuestionAsked') return none;
  const where = start.pr ? { pr: start.pr } : { issue: start.issue.number };
  if (!(await conversation.isWriter(intent.repo, installationId, writer))) {
    await conversation
      .replyToReader(intent.repo, installationId, where, writer, event.commentId)
      .catch((err: unknown) => log.warn({ err }, 'could not answer a reader'));
    return {
      kind: 'ignore',
      reason: `${writer} has no write access to ${intent.repo.owner}/${intent.repo.name}`,
    };
  }
  const pr = start.pr ? await conversation.pullRequest(intent.repo, installationId, start.pr) : null;
  if (start.pr && !pr) return { kind: 'ignore', reason: 'the pull request is not open' };
  const ask = {
    kind: event.type === 'QuestionAsked' ? ('question' as const) : ('change' as const),
    place: event.place,
    author: event.author,
    body: event.body,
    commentId: event.commentId,
  };
  // A fork's branch is its author's: booty pushes to it only when they let maintainers edit it.
  if (pr?.fork && ask.kind === 'change' && !pr.maintainerCanModify) {
    const why = `this pull request's branch lives in the fork ${pr.fork}, and @${pr.author} does not let maintainers edit it: tick "Allow edits by maintainers" on the pull request, then ask again`;
    await conversation
      .answerIgnored(
        intent.repo,
        installationId,
        where,
        writer,
        event.commentId,
        `booty did not start: ${why}.`,
      )
      .catch((err: unknown) => log.warn({ err }, 'could not answer a request on a fork'));
    return { kind: 'ignore', reason: `the fork ${pr.fork} does not allow edits by maintainers` };
  }
  return {
    kind: 'request',
    request: {
      repo: intent.repo,
      issue: start.issue,
      triggerLabel: start.triggerLabel,
      sender: writer,
      installationId,
      ...(start.planApproval ? { planApproval: true } : {}),
      ask,
      // A fork that is gone cannot be read: a question is then read at the default branch.
      ...(pr && pr.fork !== GONE_FORK ? { onPr: pr } : {}),
    },
  };
}

/**
 * Merging a PR that says "Closes #n" closes the issue too, and the forge does not promise which
 * webhook comes first. An issue closed while its job's PR is merged is that merge, not a cancel.
 */
async function closedByMerge(
  intent: Extract<Intent, { kind: 'cancel' }>,
  installationId: number | null,
  deps: TakeDeps,
  log: Logger,
): Promise<Intent> {
  if (intent.reason !== 'closed' || !deps.conversation) return intent;
  const job = await deps.intake.jobFor(intent.repo, { issue: intent.issue });
  if (job?.pr == null) return intent;
  const mergedBy = await deps.conversation
    .mergedBy(intent.repo, installationId, job.pr)
    .catch((err: unknown) => {
      log.warn({ err }, 'could not read whether the pull request was merged; the job is cancelled');
      return null;
    });
  if (mergedBy === null) return intent;
  const merged: ConversationIntent = {
    kind: 'wake',
    repo: intent.repo,
    target: { pr: job.pr },
    event: { type: 'PrClosed', merged: true, sender: mergedBy },
    needs: { writer: null, installationId, reviewComments: null, react: null },
  };
  return merged;
}

/** 👀 on what the job accepted, within the webhook's time; a failure is logged, never the reply's. */
async function acknowledge(intent: ConversationIntent, deps: TakeDeps, log: Logger) {
  const react = intent.needs.react;
  if (!deps.conversation || !react) return;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, REACT_WAIT_MS);
  });
  await Promise.race([
    deps.conversation
      .react(
        intent.repo,
        intent.needs.installationId,
        react.place,
        react.commentId,
        intent.event.type === 'FeedbackReceived' ? intent.event.comments.map((c) => c.id) : [],
        intent.target,
      )
      .catch((err: unknown) => log.warn({ err }, 'could not react to a comment')),
    late,
  ]);
  clearTimeout(timer);
}

/** What a command the job did not take found missing, in the writer's terms. */
const NOTHING_TO_DO: Partial<Record<string, string>> = {
  stop: 'no round is under way to stop',
  approve: 'no plan is waiting for approval',
  revise: 'no plan is waiting for approval',
  continue: 'the job is not waiting on its token budget',
  apply: 'no pull request is open yet to apply suggestions on',
  retry:
    'no pull request is open to run a round on yet: the job waits for `@booty approve` of its plan, or `@booty continue` at its token budget',
};

/** `retry` where a pull request waits with nothing that failed: no round is run, and no model asked. */
const NOTHING_TO_RETRY =
  'nothing failed that another round could redo: the last round pushed its commit, the tests pass and CI is not red. Say what to change with `@booty <what to change>`';

/** Every command from a writer gets an answer: one the job did not take says why. */
async function answerIgnored(intent: ConversationIntent, reason: string, deps: TakeDeps, log: Logger) {
  const { event } = intent;
  if (!deps.conversation) return;
  // The one place a job does not take a question: parked at its budget, which the answer would spend.
  if (event.type === 'QuestionAsked' && reason === NOTHING_NEW) {
    await deps.conversation
      .answerIgnored(
        intent.repo,
        intent.needs.installationId,
        intent.target,
        event.author,
        event.commentId,
        'booty did not answer: this job has spent its token budget and waits for a writer’s `@booty continue`.',
      )
      .catch((err: unknown) => log.warn({ err }, 'could not answer an ignored question'));
    return;
  }
  if (event.type !== 'CommandReceived') return;
  let why = reason === NOTHING_NEW ? (NOTHING_TO_DO[event.command] ?? reason) : reason;
  if (reason === NOTHING_NEW && event.command === 'retry') {
    const job = await deps.intake.jobFor(intent.repo, intent.target).catch(() => null);
    if (job && (job.state === 'prOpened' || job.state === 'promoted')) why = NOTHING_TO_RETRY;
  }
  await deps.conversation
    .answerIgnored(
      intent.repo,
      intent.needs.installationId,
      intent.target,
      event.author,
      event.commentId,
      `\`@booty ${event.command}\` did nothing: ${why}.`,
    )
    .catch((err: unknown) => log.warn({ err }, 'could not answer an ignored command'));
}

/** A writer's call booty cannot take where it was made hears why; a reader's stays unanswered. */
async function answerWriter(
  answer: WriterAnswer,
  installationId: number | null,
  deps: TakeDeps,
  log: Logger,
) {
  const { conversation } = deps;
  if (!conversation) return;
  try {
    if (!(await conversation.isWriter(answer.repo, installationId, answer.writer))) return;
    await conversation.answerIgnored(
      answer.repo,
      installationId,
      answer.on,
      answer.writer,
      answer.commentId,
      answer.text,
    );
  } catch (err) {
    log.warn({ err }, 'could not answer a call booty cannot take');
  }
}

/** The reply for each submit outcome. Pure, so the contract with the forge reads in one place. */
export function replyFor(
  result: SubmitResult,
  intent: Intent,
): { status: number; body: Record<string, unknown> } {
  switch (result.outcome) {
    case 'created':
      return { status: 202, body: { jobId: result.jobId } };
    case 'already-active': {
      const where =
        intent.kind === 'request' ? issueKey(intent.request.repo, intent.request.issue.number) : 'this issue';
      return {
        status: 202,
        body: {
          jobId: result.jobId,
          alreadyActive: true,
          message: `${where} already has an active job ${result.jobId}; no second job was started`,
        },
      };
    }
    case 'cancelled':
      return { status: 202, body: { cancelled: result.jobIds } };
    case 'woke':
      return { status: 202, body: { jobId: result.jobId, woke: true } };
    case 'ignored':
      return { status: 202, body: { ignored: true, reason: result.reason } };
    case 'duplicate':
      return { status: 200, body: { duplicate: true } };
  }
}
