import type { FeedbackPlace } from '../../events/conversation-events.js';
import type { JobContext, RoundTrigger } from '../../machines/job-context.js';
import type { QuestionReply } from '../forge.js';
import { ANSWER_TAG, replyMarker } from '../markers.js';
import { quotedFirstLine } from '../mention.js';
import type { CiDeps } from './ci-read.js';
import type { GitHubClient } from './clients.js';
import { mapped } from './github-errors.js';
import { createOnce, hasMarker, issueThread, postOnce } from './marked-comment.js';
import { resolveThreads } from './review-threads.js';

// The end of a follow-up round: every person who asked hears back where they asked. A review's
// comments get a reply in their own threads; a review with only a body, and an `@booty` comment,
// get one comment beside them quoting the request. Each answer carries a marker naming the job,
// the round and the comment it answers, so a round answered again after a crash posts nothing twice.

export interface RoundOutcome {
  /** The commit the round pushed, or null when it pushed nothing. */
  commit: string | null;
  /** Why nothing was pushed. */
  note: string | null;
}

type Answer =
  | { to: 'thread'; commentId: number; marker: string; body: string }
  | { to: 'issue'; number: number; marker: string; body: string };

interface ReviewCommentData {
  id: number;
  in_reply_to_id?: number;
  body: string;
}

export function answerRound(deps: CiDeps) {
  return async (job: JobContext, outcome: RoundOutcome): Promise<{ replies: number }> => {
    const round = job.round;
    if (!round) return { replies: 0 };
    const scrub = deps.scrub ?? ((t: string) => t);
    const stopper = round.stoppedBy;
    // Whoever stopped the round hears what was stopped, where they said it.
    const stopped: Answer[] = stopper
      ? [
          {
            to: 'issue',
            number: placeNumber(job, stopper.place),
            marker: replyMarker(job.jobId, round.n, stopper.commentId),
            body: `@${stopper.author} Stopped round ${round.n} (${round.triggers.length} request${round.triggers.length === 1 ? '' : 's'}): nothing of it was pushed${job.pr && !job.pr.draft ? '; the pull request stays ready' : ''}.`,
          },
        ]
      : [];
    const answers = unique([
      ...round.triggers.flatMap((t) => answersTo(job, round.n, t, outcome)),
      ...stopped,
    ]);
    if (!answers.length) return { replies: 0 };
    const gh = await deps.clients.forJob(job);
    let replies = 0;

    const threads = answers.flatMap((a) => (a.to === 'thread' ? [a] : []));
    if (threads.length && job.pr) {
      const listed = await reviewComments(gh, job);
      for (const answer of threads) {
        if (hasMarker(listed, answer.marker)) {
          replies++;
          continue;
        }
        const asked = listed.find((c) => c.id === answer.commentId);
        if (!asked) {
          deps.log?.warn(
            { jobId: job.jobId, comment: answer.commentId },
            'the review comment is gone; no reply',
          );
          continue;
        }
        // GitHub threads replies under the thread's first comment.
        const root = asked.in_reply_to_id ?? asked.id;
        await createOnce(
          () =>
            gh.rest.pulls.createReplyForReviewComment({
              owner: job.repo.owner,
              repo: job.repo.name,
              pull_number: job.pr!.number,
              comment_id: root,
              body: scrub(`${answer.marker}\n${answer.body}`),
            }),
          async () => hasMarker(await reviewComments(gh, job), answer.marker),
        );
        replies++;
      }
    }

    const onIssues = answers.flatMap((a) => (a.to === 'issue' ? [a] : []));
    for (const number of new Set(onIssues.map((a) => a.number))) {
      const known = await issueThread(gh, job.repo, number);
      for (const answer of onIssues.filter((a) => a.number === number)) {
        await postOnce(gh, job.repo, number, answer.marker, scrub(answer.body), known);
        replies++;
      }
    }
    // The threads the pushed commit answered are resolved; a failure leaves them open, and the round stands.
    const resolved = outcome.commit
      ? await resolveThreads(gh, job, answeredComments(round)).catch((err: unknown) => {
          deps.log?.warn({ err, jobId: job.jobId }, 'could not resolve the answered review threads');
          return 0;
        })
      : 0;
    deps.log?.info({ jobId: job.jobId, round: round.n, replies, resolved }, 'answered the round');
    return { replies };
  };
}

/** The review comments a round's commit answers: a review's inline comments, and suggestions it applied. */
const answeredComments = (round: NonNullable<JobContext['round']>) => [
  ...round.triggers.flatMap((t) =>
    t.kind === 'feedback' && t.place === 'review' ? t.comments.map((c) => c.id) : [],
  ),
  ...(round.suggestions?.applied.map((a) => a.commentId) ?? []),
];

const reviewComments = (gh: GitHubClient, job: JobContext): Promise<ReviewCommentData[]> =>
  mapped(() =>
    gh.rest.paginate(gh.rest.pulls.listReviewComments, {
      owner: job.repo.owner,
      repo: job.repo.name,
      pull_number: job.pr!.number,
      per_page: 100,
    }),
  );

function answersTo(job: JobContext, round: number, trigger: RoundTrigger, outcome: RoundOutcome): Answer[] {
  // The progress comment tells CI's story; a question hears back from answerQuestions.
  if (trigger.kind === 'ci' || trigger.kind === 'question') return [];
  const said = result(job, outcome);
  const marker = (id: number) => replyMarker(job.jobId, round, id);
  const number = placeNumber(job, trigger.place);
  if (trigger.kind === 'command' && trigger.command === 'apply') {
    const body = `@${trigger.author} ${suggestionsSaid(job, outcome)}`;
    return [{ to: 'issue', number, marker: marker(trigger.commentId), body }];
  }
  if (trigger.kind === 'command') {
    const body = `@${trigger.author} ${trigger.command === 'stop' ? 'Stopped' : 'Retried'}: ${said}`;
    return [{ to: 'issue', number, marker: marker(trigger.commentId), body }];
  }
  if (trigger.place === 'review' && trigger.comments.length && job.pr) {
    return trigger.comments.map((c) => ({ to: 'thread', commentId: c.id, marker: marker(c.id), body: said }));
  }
  const quote = quotedFirstLine(trigger.body);
  const asked = quote ? `\n> ${quote}\n\n` : ' ';
  return [
    { to: 'issue', number, marker: marker(trigger.commentId), body: `@${trigger.author}${asked}${said}` },
  ];
}

/** The answer itself: the commit, linked within the PR, or why there is none. */
function result(job: JobContext, { commit, note }: RoundOutcome): string {
  if (commit) {
    const short = `\`${commit.slice(0, 7)}\``;
    return job.pr ? `Done in [${short}](${job.pr.url}/commits/${commit}).` : `Done in ${short}.`;
  }
  return `Not done: ${note ?? 'the round pushed no change.'}`;
}

/** `apply suggestions`: which blocks the commit holds, and which it left, with why. */
function suggestionsSaid(job: JobContext, outcome: RoundOutcome): string {
  const { applied, skipped } = job.round?.suggestions ?? { applied: [], skipped: [] };
  const link = (id: number) => (job.pr ? `[#${id}](${job.pr.url}#discussion_r${id})` : `#${id}`);
  const lines = (at: { path: string; startLine: number; line: number }) =>
    at.startLine === at.line ? `${at.path}:${at.line}` : `${at.path}:${at.startLine}-${at.line}`;
  const done =
    outcome.commit && applied.length
      ? `Applied ${applied.length} suggestion${applied.length === 1 ? '' : 's'} as written: ${result(job, outcome)}\n${applied
          .map((a) => `- ${link(a.commentId)} by @${a.author} on \`${lines(a)}\``)
          .join('\n')}`
      : skipped.length
        ? 'Applied no suggestion: none could be.'
        : 'Found no suggestion block on this pull request to apply.';
  const left = skipped.length
    ? `\n\nCould not apply:\n${skipped.map((s) => `- ${link(s.commentId)} by @${s.author}${s.path ? ` on \`${s.path}\`` : ''}: ${s.reason}`).join('\n')}`
    : '';
  return `${done}${left}`;
}

/** A review and a PR comment are answered on the PR; an issue comment on the issue. */
const placeNumber = (job: JobContext, place: FeedbackPlace) =>
  place !== 'issue-comment' && job.pr ? job.pr.number : job.issue.number;

/** One answer per marker: a comment named twice (a redelivered request) is answered once. */
const unique = (answers: Answer[]) => [...new Map(answers.map((a) => [a.marker, a])).values()];

/** A round of questions: each asker hears the answer where they asked, once (the marker). */
export function answerQuestions(deps: CiDeps) {
  return async (job: JobContext, reply: QuestionReply): Promise<{ replies: number }> => {
    const round = job.round;
    if (!round) return { replies: 0 };
    const scrub = deps.scrub ?? ((t: string) => t);
    const gh = await deps.clients.forJob(job);
    let replies = 0;
    const asked = round.triggers.flatMap((t) => (t.kind === 'question' ? [t] : []));
    for (const t of asked) {
      const number = placeNumber(job, t.place);
      const marker = replyMarker(job.jobId, round.n, t.commentId);
      const quote = quotedFirstLine(t.body);
      const body = `${ANSWER_TAG}\n@${t.author}${quote ? `\n> ${quote}\n\n` : ' '}${questionBody(job, reply)}`;
      await postOnce(gh, job.repo, number, marker, scrub(body), await issueThread(gh, job.repo, number));
      replies++;
    }
    deps.log?.info({ jobId: job.jobId, round: round.n, replies }, 'answered the questions');
    return { replies };
  };
}

/** The answer, then the lines it rests on, linked at the commit read; nothing was committed. */
function questionBody(job: JobContext, reply: QuestionReply): string {
  const web = job.issue.url.replace(/\/(issues|pull)\/\d+$/, '');
  const link = (r: QuestionReply['references'][number]) => {
    const lines = r.line ? `#L${r.line}${r.endLine && r.endLine !== r.line ? `-L${r.endLine}` : ''}` : '';
    const label = `${r.path}${r.line ? `:${r.line}${r.endLine && r.endLine !== r.line ? `-${r.endLine}` : ''}` : ''}`;
    return web ? `- [\`${label}\`](${web}/blob/${reply.commit}/${r.path}${lines})` : `- \`${label}\``;
  };
  const refs = reply.references.length
    ? `\n\n**Read at \`${reply.commit.slice(0, 7)}\`:**\n${reply.references.map(link).join('\n')}`
    : '';
  return `${reply.answer}${refs}\n\n_An answer only: nothing was committed. Ask a follow-up with \`@booty\`._`;
}
