import type { IssueComment } from '../../events/effect-results.js';
import type { IssueRef, RepoRef } from '../../events/job-events.js';
import type { JobContext } from '../../machines/job-context.js';
import { ANSWER_TAG, isBootysOwn } from '../markers.js';
import type { GitHubClient, GitHubClients } from './clients.js';
import { mapped } from './github-errors.js';

// Reading an issue: for `booty run`, and its discussion for the model's context.

export interface IssueDetails extends IssueRef {
  state: 'open' | 'closed';
  labels: string[];
  author: string;
}

export function getIssue(clients: GitHubClients) {
  return async (
    repo: RepoRef,
    number: number,
    installationId: number | null = null,
  ): Promise<IssueDetails> => {
    const gh = await clients.forRepo(repo, installationId);
    const { data } = await mapped(() =>
      gh.rest.issues.get({ owner: repo.owner, repo: repo.name, issue_number: number }),
    );
    return {
      number: data.number,
      title: data.title,
      body: data.body ?? '',
      url: data.html_url,
      state: data.state === 'closed' ? 'closed' : 'open',
      labels: data.labels.map((l) => (typeof l === 'string' ? l : (l.name ?? ''))).filter(Boolean),
      author: data.user?.login ?? 'ghost',
    };
  };
}

/** Every comment on the job's issue, oldest first, across all pages. */
export const allIssueComments = (gh: GitHubClient, job: { repo: RepoRef; issue: { number: number } }) =>
  mapped(() =>
    gh.rest.paginate(gh.rest.issues.listComments, {
      owner: job.repo.owner,
      repo: job.repo.name,
      issue_number: job.issue.number,
      per_page: 100,
    }),
  );

/** The issue's comments, oldest first, without booty's own (its progress, replies and notes). */
export function listIssueComments(clients: GitHubClients) {
  return async (job: Pick<JobContext, 'repo' | 'issue' | 'installationId'>): Promise<IssueComment[]> => {
    const comments = await allIssueComments(await clients.forJob(job), job);
    // booty's own comments are not the discussion, but its answers to questions are what a
    // follow-up question follows.
    return comments.flatMap((c): IssueComment[] => {
      const author = c.user?.login ?? 'ghost';
      const body = c.body ?? '';
      if (!isBootysOwn(body)) return [{ author, body }];
      if (!body.includes(ANSWER_TAG)) return [];
      return [{ author, body: body.replace(/<!-- booty:[^>]*-->\n?/g, '').trim(), answer: true }];
    });
  };
}
