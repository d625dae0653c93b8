import { assertEvent } from 'xstate';
import type { QuestionAnswered, SuggestionsApplied } from '../events/effect-results.js';
import {
  addUsage,
  type Conversation,
  currentRound,
  type JobState,
  lastTestOf,
  type Round,
  type RoundTrigger,
} from './job-context.js';
import { type Args, done, failedStep, failureOf, output, talk, update, withRound } from './logic-kit.js';

// What people say to a job, as guards and context updates of the job machine (machine 8): the
// requests queued for a round and the bound on them, questions (a round of their own, answered
// and never committed), a job asked on someone else's pull request, and the commands that answer
// with what they did (`stop`, and `retry` only when there is something to retry).
// Pure, like job-logic.ts.

/** Requests and commands: what a follow-up round does work for (CI and questions are apart). */
export const isFollowUp = (t: RoundTrigger) => t.kind === 'feedback' || t.kind === 'command';
const isQuestion = (t: RoundTrigger) => t.kind === 'question';
const followUpsUsed = (c: Conversation) =>
  c.rounds.filter((r) => r.triggers.some(isFollowUp)).length + (c.inbox.some(isFollowUp) ? 1 : 0);
const maxFollowUps = (s: JobState) => (s.config?.maxFollowUps ?? 5) + s.conversation.lifted.followUps;

/**
 * Queues a request for the next round. A request past the bound on follow-up rounds is dropped
 * and the bound noted, unless it called on booty by name: that lifts the bound once.
 */
export function queued(context: JobState, trigger: RoundTrigger, mention: boolean): Partial<JobState> {
  const c = context.conversation;
  const joins = c.inbox.some(isFollowUp) || currentRound(context) === null;
  const room = followUpsUsed(c) < maxFollowUps(context) || (joins && c.inbox.some(isFollowUp));
  if (!room && !mention) return talk(context, { bounded: 'followUps' });
  const lifted = room
    ? c.lifted
    : {
        followUps: c.lifted.followUps + 1,
        // A writer's word also lifts a reached CI bound: the next red CI gets a round again.
        ciFixes: c.lifted.ciFixes + (c.bounded === 'ciFixes' ? 1 : 0),
      };
  return talk(context, { inbox: [...c.inbox, trigger], lifted, bounded: null });
}

export function newRound(context: JobState, triggers: RoundTrigger[]): Round {
  return {
    n: context.conversation.rounds.length + 1,
    triggers,
    firstAttempt: context.attempt + 1,
    base: null,
    result: null,
    commit: null,
    note: null,
  };
}

const isApply = (t: RoundTrigger) => t.kind === 'command' && t.command === 'apply';

/**
 * The triggers the next round takes from the inbox: every request together; questions wait for
 * their own, and so does `apply suggestions` (no model, no tests), taken first when it came first.
 */
export function nextRoundTriggers(inbox: RoundTrigger[]): RoundTrigger[] {
  const work = inbox.filter((t) => !isQuestion(t));
  return work[0] && isApply(work[0]) ? work.filter(isApply) : work.filter((t) => !isApply(t));
}

/** The inbox once the next round took its triggers. */
const leftAfter = (inbox: RoundTrigger[], taken: RoundTrigger[]) => inbox.filter((t) => !taken.includes(t));

/** The last round that worked on the code (a round of questions changes nothing). */
const lastWorkRound = (c: Conversation) => c.rounds.findLast((r) => r.result !== 'answered');

/**
 * What a writer's `retry` runs again: the last round's requests when it pushed nothing, red CI on
 * the head, or the tests that did not pass; null when nothing failed, so nothing is asked of the
 * model.
 */
function retried(context: JobState): RoundTrigger[] | null {
  const c = context.conversation;
  const last = lastWorkRound(c);
  if (last && last.result !== 'pushed' && last.result !== null)
    return last.triggers.filter((t) => !(t.kind === 'command' && t.command === 'retry'));
  if (c.ci?.state === 'failed' && c.ci.sha === context.pr?.headSha)
    return [{ kind: 'ci', sha: c.ci.sha, failing: c.ci.failing }];
  if (lastTestOf(context)?.passed !== true) return [];
  return null;
}

const command = (args: Args, word: string) =>
  args.event.type === 'CommandReceived' && args.event.command === word;

export const talkGuards = {
  /** A question waits for its answer. */
  questionWaiting: ({ context }: Args) => context.conversation.inbox.some(isQuestion),
  /** A request or a command waits for a round that works on the code. */
  inboxWaiting: ({ context }: Args) => context.conversation.inbox.some((t) => !isQuestion(t)),
  /** The job was asked on someone else's pull request, for a change: its first round starts. */
  onPersonPr: ({ context }: Args) =>
    context.request.onPr !== null && context.conversation.inbox.some((t) => !isQuestion(t)),
  /** A round on someone else's pull request runs the tests at its head first. */
  noBaseline: ({ context }: Args) => context.baseline === null,
  /** booty opened the pull request: only then does it make it ready, draft, or read its CI. */
  ownPr: ({ context }: Args) => context.request.onPr === null,
  /** A plan waits for a writer's approval: a question answered meanwhile goes back to it. */
  planWaiting: ({ context }: Args) =>
    context.checkpoints.plans > 0 && context.checkpoints.approvedBy === null && context.pr === null,
  /** `stop` in a round that works on the code (machine 8): the round ends, and says so. */
  stopsRound: ({ context, event }: Args) => {
    const round = currentRound(context);
    return (
      context.request.collaborator &&
      command({ context, event }, 'stop') &&
      round !== null &&
      !round.triggers.every(isQuestion)
    );
  },
  /** `stop` in a round, before machine 8: the round ends, and the job waits with its draft. */
  stopInRound: ({ context, event }: Args) =>
    !context.request.collaborator && command({ context, event }, 'stop') && currentRound(context) !== null,
  /** `stop` while the round pushes and answers (machine 8): too late, so not taken. */
  stopWhileAnswering: ({ context, event }: Args) =>
    context.request.collaborator && command({ context, event }, 'stop'),
  /** `apply suggestions` where a pull request is open (machine 9): queued for a round of its own. */
  applyTaken: ({ context, event }: Args) =>
    context.request.collaborator && command({ context, event }, 'apply') && context.pr !== null,
  /** The round applies a writer's suggestion blocks, with no model call and no tests. */
  appliesSuggestions: ({ context }: Args) => {
    const round = currentRound(context);
    return round !== null && round.triggers.length > 0 && round.triggers.every(isApply);
  },
  hasDraftPr: ({ context }: Args) => context.pr !== null && context.pr.draft !== false,
  /** `retry`: before machine 8, always; since, only when something failed that a round can redo. */
  retryTaken: ({ context, event }: Args) =>
    command({ context, event }, 'retry') && (!context.request.collaborator || retried(context) !== null),
};

export const talkActions = {
  queueQuestion: update(({ context, event }) => {
    assertEvent(event, 'QuestionAsked');
    const { place, author, body, commentId } = event;
    const trigger: RoundTrigger = { kind: 'question', place, author, body, commentId };
    return talk(context, { inbox: [...context.conversation.inbox, trigger] });
  }),
  queueRetry: update(({ context, event }) => {
    assertEvent(event, 'CommandReceived');
    const { command: word, place, author, commentId } = event;
    const again = context.request.collaborator ? (retried(context) ?? []) : [];
    const inbox = context.conversation.inbox;
    // What the retry runs again joins the round once: a request already waiting is not doubled.
    const fresh = again.filter((t) => !inbox.some((w) => JSON.stringify(w) === JSON.stringify(t)));
    const asked: RoundTrigger = { kind: 'command', command: word, place, author, commentId };
    const withAgain = talk(context, { inbox: [...inbox, ...fresh] });
    return queued({ ...context, ...withAgain }, asked, true);
  }),
  queueApply: update(({ context, event }) => {
    assertEvent(event, 'CommandReceived');
    const { command: word, place, author, commentId } = event;
    return queued(context, { kind: 'command', command: word, place, author, commentId }, true);
  }),
  /** The suggestions as the round applies them: the files as they become, and what was left, and why. */
  recordSuggestions: done(({ context, event }) => {
    const { changes, applied, skipped } = output<SuggestionsApplied>(event);
    return {
      changes,
      ...withRound(context, {
        suggestions: { applied, skipped },
        note: changes.length ? null : 'No suggestion could be applied.',
      }),
    };
  }),
  startRound: update(({ context }) => {
    const taken = nextRoundTriggers(context.conversation.inbox);
    return {
      error: null,
      ...talk(context, {
        rounds: [...context.conversation.rounds, newRound(context, taken)],
        inbox: leftAfter(context.conversation.inbox, taken),
      }),
    };
  }),
  /** The questions waiting, answered together in a round of their own. */
  startQuestions: update(({ context }) => {
    const taken = context.conversation.inbox.filter(isQuestion);
    return {
      error: null,
      ...talk(context, {
        rounds: [...context.conversation.rounds, newRound(context, taken)],
        inbox: leftAfter(context.conversation.inbox, taken),
      }),
    };
  }),
  recordQuestion: done(({ context, event }) => {
    const out = output<QuestionAnswered>(event);
    return {
      usage: addUsage(context.usage, out.usage),
      ...withRound(context, {
        result: 'answered',
        commit: null,
        answer: { text: out.answer, commit: out.commit, references: out.references, answered: out.answered },
      }),
    };
  }),
  /** Answering failed for good: the round ends with why, and the job waits as before. */
  abandonQuestion: update(({ context, event }) => {
    const failure = failureOf(event);
    return {
      ...failedStep(context, failure),
      ...withRound(context, { result: 'not-pushed', note: `${failure.src} failed: ${failure.message}` }),
    };
  }),
  /**
   * A question job asked for a change meanwhile becomes the issue's work: the requests join the
   * issue's comments, which the analysis reads.
   */
  takeRequests: update(({ context }) => {
    const asked = context.conversation.inbox.flatMap((t) =>
      t.kind === 'feedback' ? [{ author: t.author, body: t.body }] : [],
    );
    return {
      issue: { ...context.issue, comments: [...context.issue.comments, ...asked] },
      ...talk(context, { inbox: context.conversation.inbox.filter(isQuestion) }),
    };
  }),
  /** `stop`: the round ends where it stands, and `answering` tells everyone it asked, and the stopper. */
  stopRound: update(({ context, event }) => {
    assertEvent(event, 'CommandReceived');
    const { author, commentId, place } = event;
    return withRound(context, { note: `Stopped by @${author}.`, stoppedBy: { author, commentId, place } });
  }),
  /** `stop` before machine 8: the round ends stopped, and the job waits with its draft. */
  stopRoundLegacy: update(({ context, event }) => {
    assertEvent(event, 'CommandReceived');
    return withRound(context, { result: 'stopped', note: `Stopped by @${event.author}.` });
  }),
};
