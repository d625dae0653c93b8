import type { JobContext } from '../../machines/job-context.js';
import type { QuestionReply } from '../forge.js';
import { replyMarker } from '../markers.js';
import { quotedFirstLine } from '../mention.js';
import { type Noteable, postOnce } from './notes.js';
import type { CiDeps } from './pipelines.js';

// A round of questions on GitLab: each asker hears the answer in a note where they asked (the
// issue, or the merge request), once (the marker names the job, the round and their note). The
// answer links the lines it read at the commit it read, in GitLab's blob URLs.

export function answerQuestions(deps: CiDeps) {
  return async (job: JobContext, reply: QuestionReply): Promise<{ replies: number }> => {
    const round = job.round;
    if (!round) return { replies: 0 };
    const scrub = deps.scrub ?? ((t: string) => t);
    let replies = 0;
    for (const t of round.triggers) {
      if (t.kind !== 'question') continue;
      const on: Noteable =
        t.place !== 'issue-comment' && job.pr
          ? { kind: 'merge_requests', iid: job.pr.number }
          : { kind: 'issues', iid: job.issue.number };
      const quote = quotedFirstLine(t.body);
      const body = `@${t.author}${quote ? `\n> ${quote}\n\n` : ' '}${answerText(job, reply)}`;
      await postOnce(deps.clients, job.repo, on, replyMarker(job.jobId, round.n, t.commentId), scrub(body));
      replies++;
    }
    deps.log?.info({ jobId: job.jobId, round: round.n, replies }, 'answered the questions');
    return { replies };
  };
}

/** The answer, then the lines it rests on, linked at the commit read; nothing was committed. */
function answerText(job: JobContext, reply: QuestionReply): string {
  // An issue's web URL is the project's, then `/-/issues/<iid>`.
  const web = job.issue.url.replace(/\/-\/(issues|merge_requests)\/\d+$/, '');
  const link = (r: QuestionReply['references'][number]) => {
    const span = r.line ? `${r.line}${r.endLine && r.endLine !== r.line ? `-${r.endLine}` : ''}` : '';
    const label = `${r.path}${span ? `:${span}` : ''}`;
    return `- [\`${label}\`](${web}/-/blob/${reply.commit}/${r.path}${span ? `#L${span}` : ''})`;
  };
  const refs = reply.references.length
    ? `\n\n**Read at \`${reply.commit.slice(0, 7)}\`:**\n${reply.references.map(link).join('\n')}`
    : '';
  return `${reply.answer}${refs}\n\n_An answer only: nothing was committed. Ask a follow-up with \`@booty\`._`;
}
