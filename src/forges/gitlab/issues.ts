import type { Escalated, IssueComment, PlanPosted } from '../../events/effect-results.js';
import type { RepoRef } from '../../events/job-events.js';
import type { EffectInput, JobContext } from '../../machines/job-context.js';
import { escalationComment, PLAN_COMMANDS, planText } from '../../views/loop-render.js';
import type { IssueDetails } from '../forge.js';
import { escalationMarker, isBootysOwn, planMarker, progressMarker } from '../markers.js';
import type { GitLabClients } from './clients.js';
import { mapped } from './gitlab-errors.js';
import { allNotes, findMarked, postOnce } from './notes.js';

// The issue on GitLab: read for `booty run`, its discussion for the model's context, the plan
// posted for approval, and the note that asks for help when a job gives up. The writes find
// their marker before they post.

interface GlIssue {
  iid: number;
  title: string;
  description: string | null;
  web_url: string;
  state: string;
  labels: string[];
  author: { username: string } | null;
}

export function getIssue(clients: GitLabClients) {
  return async (repo: RepoRef, number: number): Promise<IssueDetails> => {
    const i = (await mapped(() =>
      clients.call((gl) => gl.Issues.show(number, { projectId: clients.project(repo) })),
    )) as unknown as GlIssue;
    return {
      number: i.iid,
      title: i.title,
      body: i.description ?? '',
      url: i.web_url,
      state: i.state === 'closed' ? 'closed' : 'open',
      labels: i.labels,
      author: i.author?.username ?? 'ghost',
    };
  };
}

export function listIssueComments(clients: GitLabClients) {
  return async (job: Pick<JobContext, 'repo' | 'issue'>): Promise<IssueComment[]> =>
    (await allNotes(clients, job.repo, { kind: 'issues', iid: job.issue.number }))
      .filter((n) => !n.system && !isBootysOwn(n.body))
      .map((n) => ({ author: n.author.username, body: n.body }));
}

export function postPlan(clients: GitLabClients) {
  return async ({ job }: EffectInput): Promise<Omit<PlanPosted, 'at'>> => {
    const on = { kind: 'issues' as const, iid: job.issue.number };
    const marker = planMarker(job.jobId, job.checkpoints.plans + 1);
    await postOnce(clients, job.repo, on, marker, `${planText(job.analysis!)}\n\n${PLAN_COMMANDS}`);
    const posted = await findMarked(clients, job.repo, on, marker);
    return { commentId: posted?.id ?? 0, url: posted ? `${job.issue.url}#note_${posted.id}` : job.issue.url };
  };
}

/**
 * GitLab has no review request on a token's terms that booty could check as GitHub's, so the people
 * `escalate` names are called on by name in one note where the work is: the MR, else the issue.
 */
export function escalate(clients: GitLabClients) {
  return async ({ job }: EffectInput): Promise<Omit<Escalated, 'at'>> => {
    const names = job.config?.escalate ?? [];
    const users = names.filter((n) => !n.includes('/'));
    const teams = names.filter((n) => n.includes('/'));
    const on = { kind: 'issues' as const, iid: job.issue.number };
    // One read of the thread: the progress note to link, and whether the escalation is there yet.
    const notes = await allNotes(clients, job.repo, on);
    const progress = notes.find((n) => n.body.includes(progressMarker(job.jobId)));
    const body = escalationComment({
      asked: names,
      where: job.pr ? `the draft merge request !${job.pr.number}` : 'this issue',
      progressUrl: progress ? `${job.issue.url}#note_${progress.id}` : null,
    });
    await postOnce(clients, job.repo, on, escalationMarker(job.jobId), body, notes);
    return {
      on: job.pr ? 'pr' : 'issue',
      number: job.pr?.number ?? job.issue.number,
      users,
      teams,
      refused: [],
    };
  };
}
