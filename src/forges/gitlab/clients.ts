import type {
  IssueAwardEmojis,
  IssueNoteAwardEmojis,
  IssueNotes,
  Issues,
  Jobs,
  MergeRequestDiscussions,
  MergeRequestNoteAwardEmojis,
  MergeRequestNotes,
  MergeRequests,
  PersonalAccessTokens,
  Pipelines,
  ProjectMembers,
} from '@gitbeaker/rest';
import type { RepoRef } from '../../events/job-events.js';
import { fromGitbeaker, GitLabHttpError } from './gitlab-errors.js';

// GitLab's REST v4 through @gitbeaker/rest, one set of resources per instance and token. gitbeaker
// is imported on the first call, so a serve that only ever talks to GitHub never loads it. Only the
// resources booty uses are made (the whole `Gitlab` bundle builds some three hundred). gitbeaker
// itself retries a 429 or 502; a call under way at shutdown is let go and its caller told at once.

export interface GitLabClientOptions {
  /** The instance: https://gitlab.com, a self-managed address, or the local simulator. */
  url: string;
  token: string;
}

/** The gitbeaker resources booty calls. */
export interface GitLabApi {
  Issues: Issues;
  IssueNotes: IssueNotes;
  IssueAwardEmojis: IssueAwardEmojis;
  IssueNoteAwardEmojis: IssueNoteAwardEmojis;
  MergeRequests: MergeRequests;
  MergeRequestNotes: MergeRequestNotes;
  MergeRequestNoteAwardEmojis: MergeRequestNoteAwardEmojis;
  MergeRequestDiscussions: MergeRequestDiscussions;
  Pipelines: Pipelines;
  Jobs: Jobs;
  ProjectMembers: ProjectMembers;
  PersonalAccessTokens: PersonalAccessTokens;
}

export interface GitLabClients {
  /** The instance's address, without a trailing slash. */
  readonly url: string;
  /** Runs one call on the instance's resources; a refusal is thrown as a GitLabHttpError. */
  call<T>(use: (api: GitLabApi) => Promise<T>): Promise<T>;
  /** GitLab's id for a project: its `group/project` path (gitbeaker encodes it into the URL). */
  project(repo: Pick<RepoRef, 'owner' | 'name'>): string;
  gitRemoteUrl(repo: Pick<RepoRef, 'owner' | 'name'>): string;
  /** What git push uses: any user name and the token as its password, as GitLab takes an access token. */
  gitCredentials(): { username: string; password: string };
  /** Shutdown: every call under way fails at once, and new ones are refused. */
  stop(): void;
}

/** A request that takes longer is a failure the step retries. */
const QUERY_TIMEOUT_MS = 30_000;

async function loadApi(options: { host: string; token: string }): Promise<GitLabApi> {
  const gb = await import('@gitbeaker/rest');
  const given = { ...options, queryTimeout: QUERY_TIMEOUT_MS };
  return {
    Issues: new gb.Issues(given),
    IssueNotes: new gb.IssueNotes(given),
    IssueAwardEmojis: new gb.IssueAwardEmojis(given),
    IssueNoteAwardEmojis: new gb.IssueNoteAwardEmojis(given),
    MergeRequests: new gb.MergeRequests(given),
    MergeRequestNotes: new gb.MergeRequestNotes(given),
    MergeRequestNoteAwardEmojis: new gb.MergeRequestNoteAwardEmojis(given),
    MergeRequestDiscussions: new gb.MergeRequestDiscussions(given),
    Pipelines: new gb.Pipelines(given),
    Jobs: new gb.Jobs(given),
    ProjectMembers: new gb.ProjectMembers(given),
    PersonalAccessTokens: new gb.PersonalAccessTokens(given),
  };
}

export function createGitLabClients(options: GitLabClientOptions): GitLabClients {
  const url = options.url.replace(/\/+$/, '');
  const stopping = new AbortController();
  let api: Promise<GitLabApi> | null = null;
  const shuttingDown = () => new GitLabHttpError(0, 'GitLab', url, 'booty is shutting down');
  const stopped = new Promise<never>((_, reject) =>
    stopping.signal.addEventListener('abort', () => reject(shuttingDown()), { once: true }),
  );
  // Nobody may be waiting on it when the process stops.
  stopped.catch(() => {});
  return {
    url,
    async call(use) {
      if (stopping.signal.aborted) throw shuttingDown();
      api ??= loadApi({ host: url, token: options.token });
      try {
        return await Promise.race([api.then(use), stopped]);
      } catch (err) {
        throw fromGitbeaker(err, url);
      }
    },
    project: (repo) => `${repo.owner}/${repo.name}`,
    gitRemoteUrl: (repo) => `${url}/${repo.owner}/${repo.name}.git`,
    gitCredentials: () => ({ username: 'booty', password: options.token }),
    stop: () => stopping.abort(),
  };
}
