import type { GraphqlResponseError } from '@octokit/graphql';
import { BootyError } from '../../errors.js';
import { scrubSecrets } from '../../secrets/scrub.js';

// Turns what octokit throws into booty's catalogue (the job's step retries, not the request): a failure
// GitHub may recover from is retryable and names the URL; a refusal carries GitHub's own message.

interface HttpErrorLike {
  name: 'HttpError';
  status: number;
  message: string;
  request: { method?: string; url?: string };
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
}

const isHttpError = (err: unknown): err is HttpErrorLike =>
  typeof err === 'object' &&
  err !== null &&
  (err as { name?: unknown }).name === 'HttpError' &&
  typeof (err as { status?: unknown }).status === 'number';

export const httpStatus = (err: unknown): number | null => (isHttpError(err) ? err.status : null);

/** One of a 422's field errors: a message, or the resource, field and code it names. */
type FieldError = { message?: string; resource?: string; field?: string; code?: string };

/** GitHub's message, with the field errors of a 422 appended. */
export function githubMessage(err: unknown): string {
  if (!isHttpError(err)) return err instanceof Error ? err.message : String(err);
  const data = err.response?.data as { message?: string; errors?: (string | FieldError)[] } | undefined;
  const message = data?.message ?? err.message;
  const details = (data?.errors ?? [])
    .map((e) =>
      typeof e === 'string' ? e : (e.message ?? [e.resource, e.field, e.code].filter(Boolean).join(' ')),
    )
    .filter(Boolean);
  return scrubSecrets(details.length ? `${message} (${details.join('; ')})` : message);
}

export function githubError(err: unknown): BootyError | unknown {
  if (err instanceof BootyError) return err;
  if (isGraphqlError(err)) {
    const errors = (err.errors ?? []) as { type?: string; message: string }[];
    const reason = errors.map((e) => (e.type ? `${e.type}: ${e.message}` : e.message)).join('; ');
    const named = /\b(mutation|query)\s+(\w+)/.exec(String(err.request.query));
    const operation = named ? `${named[1]} ${named[2]}` : 'request';
    if (errors.some((e) => e.type === 'RATE_LIMITED')) {
      return new BootyError(
        'BOOTY_E_GITHUB_RATE_LIMITED',
        { method: 'POST', url: 'graphql', reason },
        { cause: err },
      );
    }
    return new BootyError('BOOTY_E_GITHUB_GRAPHQL', { operation, reason }, { cause: err });
  }
  if (!isHttpError(err)) return err;
  const method = err.request.method ?? 'GET';
  const url = scrubSecrets(err.request.url ?? '(unknown url)');
  const headers = err.response?.headers ?? {};
  if (!err.response || err.status >= 500) {
    // Without a response, octokit's message is the connection's own (ECONNREFUSED, other side closed).
    const code = (err as { cause?: { cause?: { code?: string } } }).cause?.cause?.code;
    const reason = err.response
      ? `${err.status} ${githubMessage(err)}`
      : code && !err.message.includes(code)
        ? `${err.message} (${code})`
        : err.message;
    return new BootyError('BOOTY_E_GITHUB_UNAVAILABLE', { method, url, reason }, { cause: err });
  }
  const message = githubMessage(err);
  if (
    err.status === 429 ||
    (err.status === 403 &&
      (/secondary rate limit/i.test(message) || String(headers['x-ratelimit-remaining']) === '0'))
  ) {
    const wait = (err as { retryAfterMs?: number }).retryAfterMs;
    const after = wait !== undefined ? `, retry after ${Math.ceil(wait / 1000)} s` : '';
    return new BootyError(
      'BOOTY_E_GITHUB_RATE_LIMITED',
      { method, url, reason: `${message}${after}` },
      { cause: err, retryAfterMs: wait },
    );
  }
  if (err.status === 401)
    return new BootyError('BOOTY_E_GITHUB_AUTH', { method, url, reason: message }, { cause: err });
  return new BootyError(
    'BOOTY_E_GITHUB_REQUEST',
    { method, url, status: err.status, reason: message },
    { cause: err },
  );
}

/** Runs a GitHub call and rethrows its failure mapped into the catalogue. */
export async function mapped<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw githubError(err);
  }
}

/**
 * octokit's GraphQL error, known by its name: octokit loads with the first request
 * (clients.ts), and an idle serve need not load it only to recognise its errors.
 */
const isGraphqlError = (err: unknown): err is GraphqlResponseError<unknown> =>
  err instanceof Error && err.name === 'GraphqlResponseError';
