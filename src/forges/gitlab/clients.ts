import type { RepoRef } from '../../events/job-events.js';
import { GitLabHttpError, gitlabMessage } from './gitlab-errors.js';

// GitLab's REST v4 on one token, through Node's own fetch (no client library is installed: see the
// README's GitLab section). One fetch per call, aborted at shutdown; a read retried on 429/502/503
// a few times within the step's time; a write never repeated blindly (its effect looks before it
// creates again).

export interface GitLabClientOptions {
  /** The instance: https://gitlab.com, a self-managed address, or the local simulator. */
  url: string;
  token: string;
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface GitLabApi {
  get<T>(path: string, query?: Query): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  put<T>(path: string, body?: unknown): Promise<T>;
  /** A text body (a job's trace). */
  text(path: string): Promise<string>;
}

export interface GitLabClients {
  /** The instance's address, without a trailing slash. */
  readonly url: string;
  readonly api: GitLabApi;
  /** `/projects/<id>` for a repository: GitLab takes the URL-encoded `group/project` as the id. */
  project(repo: Pick<RepoRef, 'owner' | 'name'>): string;
  gitRemoteUrl(repo: Pick<RepoRef, 'owner' | 'name'>): string;
  /** What git push uses: any user name and the token as its password, as GitLab takes an access token. */
  gitCredentials(): { username: string; password: string };
  /** Shutdown: aborts every request under way and refuses new ones at once. */
  stop(): void;
}

/** Reads retried on a passing refusal, within one step; the step's own retry covers the rest. */
const READ_TRIES = 3;
const RETRIED = new Set([429, 502, 503]);
/** A request that takes longer is a failure the step retries. */
const QUERY_TIMEOUT_MS = 30_000;

export function createGitLabClients(options: GitLabClientOptions): GitLabClients {
  const url = options.url.replace(/\/+$/, '');
  const stopping = new AbortController();
  const call = (method: string, path: string, init: { query?: Query; body?: unknown; text?: boolean }) =>
    send(`${url}/api/v4`, options.token, method, path, init, stopping.signal);
  return {
    url,
    api: {
      get: (path, query) => call('GET', path, { query }) as Promise<never>,
      post: (path, body) => call('POST', path, { body: body ?? {} }) as Promise<never>,
      put: (path, body) => call('PUT', path, { body: body ?? {} }) as Promise<never>,
      text: (path) => call('GET', path, { text: true }) as Promise<string>,
    },
    project: (repo) => `/projects/${encodeURIComponent(`${repo.owner}/${repo.name}`)}`,
    gitRemoteUrl: (repo) => `${url}/${repo.owner}/${repo.name}.git`,
    gitCredentials: () => ({ username: 'booty', password: options.token }),
    stop: () => stopping.abort(),
  };
}

async function send(
  base: string,
  token: string,
  method: string,
  path: string,
  init: { query?: Query; body?: unknown; text?: boolean },
  stop: AbortSignal,
): Promise<unknown> {
  const url = new URL(`${base}${path}`);
  for (const [k, v] of Object.entries(init.query ?? {}))
    if (v !== undefined) url.searchParams.set(k, String(v));
  const where = `${url.pathname}${url.search}`;
  const headers: Record<string, string> = { 'private-token': token, accept: 'application/json' };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  for (let attempt = 1; ; attempt++) {
    if (stop.aborted) throw new GitLabHttpError(0, method, where, 'booty is shutting down');
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.any([stop, AbortSignal.timeout(QUERY_TIMEOUT_MS)]),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      throw new GitLabHttpError(
        0,
        method,
        where,
        cause ? `${(err as Error).message} (${cause})` : String(err),
      );
    }
    const text = await response.text();
    if (response.ok) return init.text ? text : parseJson(text);
    const retryAfter = Number(response.headers.get('retry-after'));
    const waitMs = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined;
    if (method === 'GET' && RETRIED.has(response.status) && attempt < READ_TRIES && (waitMs ?? 0) <= 10_000) {
      await pause(waitMs ?? 250 * 2 ** attempt, stop);
      continue;
    }
    throw new GitLabHttpError(
      response.status,
      method,
      where,
      gitlabMessage(parseJson(text)) || response.statusText,
      waitMs,
    );
  }
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
