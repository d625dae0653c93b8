import { describe, expect, it, vi } from 'vitest';
import { createGitHubClients } from '../../../src/forges/github/clients.js';

// The octokit packages this process has imported, as vitest's module mocks see them.
const loaded = vi.hoisted(() => new Set<string>());
vi.mock('@octokit/rest', async (original) => {
  loaded.add('@octokit/rest');
  return original();
});
vi.mock('@octokit/auth-app', async (original) => {
  loaded.add('@octokit/auth-app');
  return original();
});

describe('GitHub clients', () => {
  it('load octokit with the first client asked for, not when they are made (an idle serve holds none of it)', async () => {
    const clients = createGitHubClients({
      apiUrl: 'http://127.0.0.1:9',
      auth: { kind: 'token', token: 'ghp_test' },
      paced: false,
    });
    expect([...loaded]).toEqual([]);

    const gh = await clients.forRepo({ forge: 'github' as const, owner: 'acme', name: 'widgets' });
    expect(typeof gh.rest.issues.get).toBe('function');
    expect(await gh.token()).toBe('ghp_test');
    // A token needs no App auth.
    expect([...loaded]).toEqual(['@octokit/rest']);
    expect(await clients.forRepo({ forge: 'github' as const, owner: 'acme', name: 'widgets' })).toBe(gh);
  });
});
