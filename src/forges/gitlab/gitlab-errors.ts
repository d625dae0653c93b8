import { BootyError } from '../../errors.js';
import { scrubSecrets } from '../../secrets/scrub.js';

// What a GitLab request throws, and how it reads in booty's catalogue: a failure GitLab may recover
// from is retryable and names the URL; a refusal carries GitLab's own message.

/** A reply GitLab sent that was not a success, or no reply at all (status 0). */
export class GitLabHttpError extends Error {
  override readonly name = 'GitLabHttpError';
  constructor(
    readonly status: number,
    readonly method: string,
    readonly url: string,
    /** GitLab's own words: its `message` or `error`, field errors joined. */
    readonly reason: string,
    /** The wait a 429 asked for (Retry-After). */
    readonly retryAfterMs?: number,
  ) {
    super(`${method} ${url}: ${status || 'no reply'} ${reason}`);
  }
}

/**
 * gitbeaker's failures as booty reads them, told apart by name so this file never loads gitbeaker:
 * a refusal (GitbeakerRequestError, its reply in `cause.response`), a timeout, retries spent on
 * 429 or 502, and a request that found no server.
 */
export function fromGitbeaker(err: unknown, instance: string): unknown {
  if (isGitLabHttpError(err) || !(err instanceof Error)) return err;
  const cause = (err as { cause?: { request?: Request; response?: Response; code?: string } }).cause;
  if (err.name === 'GitbeakerRequestError' && cause?.response) {
    const { request, response } = cause;
    const url = request ? new URL(request.url) : null;
    const retryAfter = Number(response.headers.get('retry-after'));
    return new GitLabHttpError(
      response.status,
      request?.method ?? 'GitLab',
      url ? `${url.pathname}${url.search}` : instance,
      gitlabMessage(parsed(err.message)) || response.statusText,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined,
    );
  }
  if (err.name === 'GitbeakerRetryError') {
    const status = Number(/last status code: (\d+)/.exec(err.message)?.[1] ?? 0);
    return new GitLabHttpError(status, 'GitLab', instance, err.message);
  }
  if (err.name === 'GitbeakerTimeoutError') return new GitLabHttpError(0, 'GitLab', instance, err.message);
  // fetch's own failure: no server at the address, a refused connection, a TLS error.
  if (err.name === 'TypeError' && /fetch failed/i.test(err.message))
    return new GitLabHttpError(
      0,
      'GitLab',
      instance,
      cause?.code ? `${err.message} (${cause.code})` : err.message,
    );
  return err;
}

/** gitbeaker hands GitLab's `message` on as text, JSON-encoded when it was a list or fields. */
function parsed(description: string): unknown {
  try {
    return { message: JSON.parse(description) };
  } catch {
    return description;
  }
}

export const isGitLabHttpError = (err: unknown): err is GitLabHttpError => err instanceof GitLabHttpError;
export const httpStatus = (err: unknown): number | null => (isGitLabHttpError(err) ? err.status : null);

/** GitLab's message from an error body: `message` is a string, a list, or fields to lists of strings. */
export function gitlabMessage(body: unknown): string {
  if (typeof body === 'string') return body.trim().slice(0, 500);
  if (!body || typeof body !== 'object') return '';
  const { message, error } = body as { message?: unknown; error?: unknown };
  const said = message ?? error;
  if (typeof said === 'string') return said;
  if (Array.isArray(said)) return said.map(String).join('; ');
  if (said && typeof said === 'object')
    return Object.entries(said)
      .map(
        ([field, problems]) => `${field} ${Array.isArray(problems) ? problems.join(', ') : String(problems)}`,
      )
      .join('; ');
  return '';
}

export function gitlabError(err: unknown): unknown {
  if (err instanceof BootyError || !isGitLabHttpError(err)) return err;
  const { method, status } = err;
  const url = scrubSecrets(err.url);
  const reason = scrubSecrets(err.reason);
  if (status === 0 || status >= 500)
    return new BootyError(
      'BOOTY_E_GITLAB_UNAVAILABLE',
      { method, url, reason: status ? `${status} ${reason}` : reason },
      { cause: err },
    );
  if (status === 429) {
    const after =
      err.retryAfterMs !== undefined ? `, retry after ${Math.ceil(err.retryAfterMs / 1000)} s` : '';
    return new BootyError(
      'BOOTY_E_GITLAB_RATE_LIMITED',
      { method, url, reason: `${reason}${after}` },
      { cause: err, retryAfterMs: err.retryAfterMs },
    );
  }
  if (status === 401) return new BootyError('BOOTY_E_GITLAB_AUTH', { method, url, reason }, { cause: err });
  return new BootyError('BOOTY_E_GITLAB_REQUEST', { method, url, status, reason }, { cause: err });
}

/** Runs a GitLab call and rethrows its failure in booty's words. */
export async function mapped<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw gitlabError(err);
  }
}
