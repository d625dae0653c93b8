import { GitbeakerRequestError, GitbeakerRetryError, GitbeakerTimeoutError } from '@gitbeaker/rest';
import { describe, expect, it } from 'vitest';
import { BootyError } from '../../../src/errors.js';
import { fromGitbeaker, gitlabError } from '../../../src/forges/gitlab/gitlab-errors.js';

// Given what gitbeaker throws, when booty reads it, then a passing failure is retryable and a
// refusal is not, each with GitLab's own words and the request it answered.

const INSTANCE = 'https://gitlab.example.com';

/** What gitbeaker's requester throws for a reply that was not a success. */
function refused(status: number, body: unknown, headers: Record<string, string> = {}) {
  const request = new Request(`${INSTANCE}/api/v4/projects/g%2Fp/issues/7/notes?page=2`, { method: 'POST' });
  const response = new Response(JSON.stringify(body), { status, headers });
  const said = (body as { message?: unknown }).message;
  const description = typeof said === 'string' ? said : JSON.stringify(said);
  return new GitbeakerRequestError(description, { cause: { description, request, response } });
}

const booty = (err: unknown) => gitlabError(fromGitbeaker(err, INSTANCE)) as BootyError;

describe("gitbeaker's failures in booty's words", () => {
  it.each([
    ['a 503', refused(503, { message: 'Service Unavailable' }), 'BOOTY_E_GITLAB_UNAVAILABLE', true],
    ['a 500', refused(500, { message: '500 Internal Server Error' }), 'BOOTY_E_GITLAB_UNAVAILABLE', true],
    ['a 401', refused(401, { message: '401 Unauthorized' }), 'BOOTY_E_GITLAB_AUTH', false],
    ['a 404', refused(404, { message: '404 Issue Not Found' }), 'BOOTY_E_GITLAB_REQUEST', false],
    ['a timeout', new GitbeakerTimeoutError('Query timeout was reached'), 'BOOTY_E_GITLAB_UNAVAILABLE', true],
    [
      "429s past gitbeaker's own retries",
      new GitbeakerRetryError(
        'Could not successfully complete this request after 10 retries, last status code: 429.',
      ),
      'BOOTY_E_GITLAB_RATE_LIMITED',
      true,
    ],
    [
      'no server at the address',
      Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }),
      'BOOTY_E_GITLAB_UNAVAILABLE',
      true,
    ],
  ] as const)('%s is %s (retryable: %s)', (_, thrown, code, retryable) => {
    const err = booty(thrown);
    expect(err).toBeInstanceOf(BootyError);
    expect(err.code).toBe(code);
    expect(err.retryable).toBe(retryable);
  });

  it("names the request and keeps GitLab's field errors and Retry-After", () => {
    const taken = booty(refused(404, { message: { base: ['Award emoji has already been taken'] } }));
    expect(taken.message).toContain('POST /api/v4/projects/g%2Fp/issues/7/notes?page=2');
    expect(taken.message).toContain('base Award emoji has already been taken');
    const limited = booty(refused(429, { message: 'Too many requests' }, { 'retry-after': '3' }));
    expect(limited.code).toBe('BOOTY_E_GITLAB_RATE_LIMITED');
    expect(limited.retryAfterMs).toBe(3000);
  });

  it('leaves an error that is not a request failure as it is', () => {
    const bug = new RangeError('a bug');
    expect(booty(bug)).toBe(bug);
  });
});
