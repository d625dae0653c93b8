import { BootyError } from '../../errors.js';
import type { GitLabClients } from './clients.js';
import { httpStatus, isGitLabHttpError } from './gitlab-errors.js';

// What booty's GitLab token may do, asked of GitLab itself (GET /personal_access_tokens/self through gitbeaker's
// PersonalAccessTokens.show(), which
// answers for project and group access tokens too): booty needs the `api` scope. A URL that is not
// a GitLab instance, a token GitLab refuses, and a missing scope are each named in one line. The
// answer is kept for a minute, as /readyz asks on every probe.

const NEEDED = ['api'];
const KEEP_MS = 60_000;

interface TokenSelf {
  scopes: string[];
  active?: boolean;
  revoked?: boolean;
  expires_at?: string | null;
}

export function tokenCheck(clients: GitLabClients, now: () => number = Date.now) {
  let kept: { at: number; error: BootyError | null } | null = null;
  async function ask(): Promise<BootyError | null> {
    const invalid = (reason: string, name = 'GITLAB_TOKEN') =>
      new BootyError('BOOTY_E_ENV_INVALID', { name, reason });
    let self: TokenSelf;
    try {
      self = (await clients.call((gl) => gl.PersonalAccessTokens.show())) as TokenSelf;
    } catch (err) {
      const status = httpStatus(err);
      if (status === 401)
        return invalid(`is refused by ${clients.url} (401): it is revoked, expired or mistyped`);
      if (status === 404 || (isGitLabHttpError(err) && status === 0))
        return invalid(
          `(${clients.url}) does not answer GitLab's API at /api/v4 (${isGitLabHttpError(err) ? err.reason : String(err)}); give the instance's address, such as https://gitlab.example.com`,
          'GITLAB_URL',
        );
      return invalid(`could not be checked: ${(err as Error).message}`);
    }
    if (self.active === false || self.revoked) return invalid('is not active (revoked or expired)');
    const missing = NEEDED.filter((s) => !self.scopes.includes(s));
    if (missing.length)
      return invalid(
        `lacks the ${missing.join(', ')} scope (it has ${self.scopes.join(', ') || 'none'}): make a token with api and the Developer role`,
      );
    return null;
  }
  return async (): Promise<void> => {
    if (!kept || now() - kept.at > KEEP_MS) kept = { at: now(), error: await ask() };
    if (kept.error) throw kept.error;
  };
}
