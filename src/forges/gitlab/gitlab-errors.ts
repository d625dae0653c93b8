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
