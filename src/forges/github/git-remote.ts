import type { RepoRef } from '../../events/job-events.js';

// Where a repository's git remote lives, derived from the API URL so that github.com, GitHub
// Enterprise and the local simulator need no separate setting.

export interface GitCredentials {
  username: 'x-access-token';
  password: string;
}

export function gitRemoteUrl(apiUrl: string, repo: RepoRef): string {
  const url = new URL(apiUrl);
  const tail = `${repo.owner}/${repo.name}.git`;
  if (url.hostname === 'api.github.com') return `https://github.com/${tail}`;
  const base = url.pathname.replace(/\/+$/, '');
  // GitHub Enterprise Server serves the API under /api/v3 and git at the host's root.
  if (base.endsWith('/api/v3')) return `${url.origin}${base.slice(0, -'/api/v3'.length)}/${tail}`;
  return `${url.origin}${base}/${tail}`;
}
