import type { JobContext, RoundTrigger } from '../../machines/job-context.js';
import { replyMarker } from '../markers.js';
import { mapped } from './gitlab-errors.js';
import { createOnce, hasMarker, type Noteable, postOnce } from './notes.js';
import type { CiDeps } from './pipelines.js';

// The end of a follow-up round on GitLab: a comment on the MR's diff is answered in its own
// discussion, which booty then resolves; a general note and an `@booty` command get a note beside
// them. Each answer carries a marker naming the job, the round and the note it answers, so a round
// answered again after a crash posts nothing twice.

/** A discussion as doc/api/discussions.md gives it: resolution is its notes', not its own. */
interface Discussion {
  id: string;
  notes: { id: number; body: string; resolvable?: boolean; resolved?: boolean }[];
}

type Answer =
  | { to: 'thread'; noteId: number; marker: string; body: string }
  | { to: 'notes'; on: Noteable; marker: string; body: string };

export function answerRound(deps: CiDeps) {
  return async (
    job: JobContext,
    outcome: { commit: string | null; note: string | null },
  ): Promise<{ replies: number }> => {
    const round = job.round;
    if (!round) return { replies: 0 };
    const { clients } = deps;
    const scrub = deps.scrub ?? ((t: string) => t);
    const answers = [
      ...new Map(
        round.triggers.flatMap((t) => answersTo(job, round.n, t, outcome)).map((a) => [a.marker, a]),
      ).values(),
    ];
    let replies = 0;
    const threads = answers.flatMap((a) => (a.to === 'thread' ? [a] : []));
    if (threads.length && job.pr) {
      const [project, mr] = [clients.project(job.repo), job.pr.number];
      const list = async () =>
        (await mapped(() =>
          clients.call((gl) => gl.MergeRequestDiscussions.all(project, mr, { perPage: 100 })),
        )) as unknown as Discussion[];
      const discussions = await list();
      for (const answer of threads) {
        const thread = discussions.find((d) => d.notes.some((n) => n.id === answer.noteId));
        if (!thread) {
          deps.log?.warn({ jobId: job.jobId, note: answer.noteId }, 'the discussion is gone; no reply');
          continue;
        }
        if (!hasMarker(thread.notes, answer.marker))
          await createOnce(
            () =>
              clients.call((gl) =>
                gl.MergeRequestDiscussions.addNote(
                  project,
                  mr,
                  thread.id,
                  scrub(`${answer.marker}\n${answer.body}`),
                ),
              ),
            async () => (await list()).some((d) => d.id === thread.id && hasMarker(d.notes, answer.marker)),
          );
        // Answered with a commit: the thread is done. Resolving twice is harmless.
        if (outcome.commit && !thread.notes.every((n) => n.resolved))
          await mapped(() =>
            clients.call((gl) => gl.MergeRequestDiscussions.resolve(project, mr, thread.id, true)),
          );
        replies++;
      }
    }
    for (const answer of answers.flatMap((a) => (a.to === 'notes' ? [a] : []))) {
      await postOnce(clients, job.repo, answer.on, answer.marker, scrub(answer.body));
      replies++;
    }
    deps.log?.info({ jobId: job.jobId, round: round.n, replies }, 'answered the round');
    return { replies };
  };
}

function answersTo(
  job: JobContext,
  round: number,
  trigger: RoundTrigger,
  outcome: { commit: string | null; note: string | null },
): Answer[] {
  if (trigger.kind === 'ci') return [];
  const said = outcome.commit
    ? `Done in ${outcome.commit.slice(0, 7)}${job.pr ? ` (${job.pr.url}/diffs?commit_id=${outcome.commit})` : ''}.`
    : `Not done: ${outcome.note ?? 'the round pushed no change.'}`;
  const marker = (id: number) => replyMarker(job.jobId, round, id);
  const on: Noteable =
    trigger.place !== 'issue-comment' && job.pr
      ? { kind: 'merge_requests', iid: job.pr.number }
      : { kind: 'issues', iid: job.issue.number };
  if (trigger.kind === 'command') {
    // GitLab applies its suggestions in its own interface: booty finds none to apply there.
    const body =
      trigger.command === 'apply'
        ? `@${trigger.author} Found no suggestion to apply: on GitLab, apply suggestions from the merge request's changes.`
        : `@${trigger.author} Retried: ${said}`;
    return [{ to: 'notes', on, marker: marker(trigger.commentId), body }];
  }
  if (trigger.kind === 'feedback' && trigger.place === 'review' && trigger.comments.length && job.pr)
    return trigger.comments.map((c) => ({ to: 'thread', noteId: c.id, marker: marker(c.id), body: said }));
  const line =
    trigger.body
      .split('\n')
      .find((l) => l.trim())
      ?.trim() ?? '';
  const quote = (line.length > 200 ? `${line.slice(0, 200)}…` : line).replace(/@(?=[A-Za-z0-9])/g, '@\u200b');
  return [
    {
      to: 'notes',
      on,
      marker: marker(trigger.commentId),
      body: `@${trigger.author}${quote ? `\n> ${quote}\n\n` : ' '}${said}`,
    },
  ];
}
