import type { FeedbackPlace } from '../../events/conversation-events.js';
import type { JobContext, RoundTrigger } from '../../machines/job-context.js';
import { replyMarker } from '../markers.js';
import type { CiDeps } from './ci-read.js';
import type { GitHubClient } from './clients.js';
import { mapped } from './github-errors.js';
import { createOnce, hasMarker, issueThread, postOnce } from './marked-comment.js';

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
    const answers = unique(round.triggers.flatMap((t) => answersTo(job, round.n, t, outcome)));
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
    deps.log?.info({ jobId: job.jobId, round: round.n, replies }, 'answered the round');
    return { replies };
  };
}

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
  if (trigger.kind === 'ci') return []; // the progress comment tells CI's story
  const said = result(job, outcome);
  const marker = (id: number) => replyMarker(job.jobId, round, id);
  const number = placeNumber(job, trigger.place);
  if (trigger.kind === 'command') {
    const body = `@${trigger.author} Retried: ${said}`;
    return [{ to: 'issue', number, marker: marker(trigger.commentId), body }];
  }
  if (trigger.place === 'review' && trigger.comments.length && job.pr) {
    return trigger.comments.map((c) => ({ to: 'thread', commentId: c.id, marker: marker(c.id), body: said }));
  }
  const quote = firstLine(trigger.body);
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

/** A review and a PR comment are answered on the PR; an issue comment on the issue. */
const placeNumber = (job: JobContext, place: FeedbackPlace) =>
  place !== 'issue-comment' && job.pr ? job.pr.number : job.issue.number;

/** The request's first line, short, with its mentions defused so the quote calls nobody (booty included). */
function firstLine(body: string): string {
  const line =
    body
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  const short = line.length > 200 ? `${line.slice(0, 200)}…` : line;
  return short.replace(/@(?=[A-Za-z0-9])/g, '@\u200b');
}

/** One answer per marker: a comment named twice (a redelivered request) is answered once. */
const unique = (answers: Answer[]) => [...new Map(answers.map((a) => [a.marker, a])).values()];
