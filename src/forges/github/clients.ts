import type { createAppAuth } from '@octokit/auth-app';
import type { Octokit } from '@octokit/rest';
import { BootyError } from '../../errors.js';
import type { RepoRef } from '../../events/job-events.js';
import type { Logger } from '../../log.js';
import { isLoopbackHost } from '../../loopback.js';
import type { JobContext } from '../../machines/job-context.js';
import type { GitHubAuth } from './auth.js';
import { type GitCredentials, gitRemoteUrl } from './git-remote.js';
import { mapped } from './github-errors.js';
import { requestPolicy } from './request-policy.js';

// The octokit clients booty talks to GitHub with: REST and GraphQL on one authenticated request,
// with booty's request policy (request-policy.ts) for rate limits and pacing. GITHUB_API_URL points them at github.com, GitHub
// Enterprise (/api/v3) or the local simulator alike.

export type BootyOctokit = Octokit;

export interface GitHubClientOptions {
  apiUrl: string;
  auth: GitHubAuth;
  log?: Logger;
  /** GitHub's recommended pacing of writes (1 s apart, 3 s for notifying ones); default on, except for a loopback URL (the simulator). */
  paced?: boolean;
  userAgent?: string;
}

export interface GitHubClient {
  rest: BootyOctokit;
  graphql: BootyOctokit['graphql'];
  /** The token the requests carry: the job's installation token, or the configured token. */
  token(): Promise<string>;
}

export interface GitHubClients {
  readonly apiUrl: string;
  /** A client for a repository: for an App, the installation's (looked up when not given). */
  forRepo(repo: RepoRef, installationId?: number | null): Promise<GitHubClient>;
  forJob(job: Pick<JobContext, 'repo' | 'installationId'>): Promise<GitHubClient>;
  /** Whether booty is a GitHub App (else it holds a token). */
  readonly isApp: boolean;
  /** The App itself, by its JWT (its webhook deliveries, its installations); only for an App. */
  forApp(): Promise<BootyOctokit>;
  /** The credential git push uses: the same token as the API calls. */
  gitCredentials(job: Pick<JobContext, 'repo' | 'installationId'>): Promise<GitCredentials>;
  gitRemoteUrl(repo: RepoRef): string;
  /** Shutdown: aborts every request under way and refuses new ones at once. */
  stop(): void;
}

export function createGitHubClients(options: GitHubClientOptions): GitHubClients {
  const apiUrl = options.apiUrl.replace(/\/+$/, '');
  const log = options.log?.child({ component: 'github' });

  const stopping = new AbortController();
  const policy = requestPolicy({
    paced: options.paced ?? !isLoopbackHost(new URL(apiUrl).hostname),
    stop: stopping.signal,
  });
  // octokit (its table of every REST endpoint, the App auth) loads with the first request, so a
  // serve that has had no job holds none of it. A load that failed is tried again by the next request.
  let loading: Promise<Octokits> | null = null;
  const octokits = () => {
    loading ??= loadOctokits(policy, options.auth.kind === 'app').catch((err: unknown) => {
      loading = null;
      throw err;
    });
    return loading;
  };
  const make = (lib: Octokits, auth: Record<string, unknown>): Octokit =>
    new lib.Octokit({
      baseUrl: apiUrl,
      userAgent: options.userAgent ?? 'booty',
      ...auth,
      log: {
        debug: () => {},
        info: () => {},
        warn: (message: string) => log?.warn(message),
        error: (message: string) => log?.error(message),
      },
    });

  const clients = new Map<string, GitHubClient>();
  const installations = new Map<string, number>();
  const auth = options.auth;
  let app: Octokit | null = null;

  /** One client per credential, made on first use: octokit caches the installation token inside it. */
  const client = (key: string, make: () => { octokit: BootyOctokit; token: () => Promise<string> }) => {
    let made = clients.get(key);
    if (!made) {
      const { octokit, token } = make();
      made = { rest: octokit, graphql: octokit.graphql, token };
      clients.set(key, made);
    }
    return made;
  };

  async function installationFor(repo: RepoRef, app: Octokit): Promise<number> {
    const key = `${repo.owner}/${repo.name}`.toLowerCase();
    const known = installations.get(key);
    if (known) return known;
    const { data } = await mapped(() =>
      app.rest.apps.getRepoInstallation({ owner: repo.owner, repo: repo.name }),
    );
    installations.set(key, data.id);
    return data.id;
  }

  const appAuthOf = (lib: Octokits, app: Extract<GitHubAuth, { kind: 'app' }>) => ({
    authStrategy: lib.createAppAuth,
    auth: { appId: app.appId, privateKey: app.privateKey },
  });

  async function forApp(): Promise<Octokit> {
    if (auth.kind !== 'app')
      throw new BootyError('BOOTY_E_GITHUB_CREDENTIALS', { reason: 'booty is not a GitHub App' });
    const lib = await octokits();
    app ??= make(lib, appAuthOf(lib, auth));
    return app;
  }

  async function forRepo(repo: RepoRef, installationId: number | null = null): Promise<GitHubClient> {
    const lib = await octokits();
    if (auth.kind === 'token') {
      return client('token', () => ({
        octokit: make(lib, { auth: auth.token }),
        token: async () => auth.token,
      }));
    }
    const appAuth = appAuthOf(lib, auth);
    const id = installationId ?? (await installationFor(repo, await forApp()));
    return client(`installation:${id}`, () => {
      const octokit = make(lib, { ...appAuth, auth: { ...appAuth.auth, installationId: id } });
      const token = async () => {
        const result = (await mapped(() => octokit.auth({ type: 'installation' }))) as { token: string };
        return result.token;
      };
      return { octokit, token };
    });
  }

  return {
    apiUrl,
    forRepo,
    forJob: (job) => forRepo(job.repo, job.installationId),
    isApp: auth.kind === 'app',
    forApp,
    async gitCredentials(job) {
      const gh = await forRepo(job.repo, job.installationId);
      const password = await gh.token();
      if (!password) throw new BootyError('BOOTY_E_GITHUB_CREDENTIALS', { reason: 'the token is empty' });
      return { username: 'x-access-token', password };
    },
    gitRemoteUrl: (repo) => gitRemoteUrl(apiUrl, repo),
    stop: () => stopping.abort(),
  };
}

interface Octokits {
  Octokit: typeof Octokit;
  /** Only for a GitHub App. */
  createAppAuth: typeof createAppAuth | null;
}

async function loadOctokits(policy: ReturnType<typeof requestPolicy>, app: boolean): Promise<Octokits> {
  const [rest, appAuth] = await Promise.all([
    import('@octokit/rest'),
    app ? import('@octokit/auth-app') : null,
  ]);
  return { Octokit: rest.Octokit.plugin(policy), createAppAuth: appAuth?.createAppAuth ?? null };
}

/** The credential for git push, from the job's installation or the configured token. */
export const gitCredentials = (clients: GitHubClients, job: Pick<JobContext, 'repo' | 'installationId'>) =>
  clients.gitCredentials(job);
