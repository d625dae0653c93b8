import { createPublicKey } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startGitHubSimulator } from '../../sim/github/github-simulator.js';
import { createGitHubClients } from '../../src/forges/github/clients.js';
import { pushBranch, sampleDir } from '../forges/github/sim-fixture.js';
import { tempDir } from '../support/job-harness.js';

// The simulator's manifest flow (GitHub's "new App" page and the code exchange), its checks of a
// manifest, and the permissions it holds an App registered that way to.

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!().catch(() => {});
});

async function sim() {
  const s = await startGitHubSimulator({ dir: tempDir('booty-ghsim-') });
  closers.push(() => s.close());
  return s;
}

const manifest = (over: Record<string, unknown> = {}) => ({
  name: 'probe',
  url: 'https://example.com',
  hook_attributes: { url: 'https://example.com/webhooks' },
  redirect_url: 'http://127.0.0.1:1/callback',
  default_events: ['issues'],
  default_permissions: { issues: 'write' },
  ...over,
});

/** The browser posting the form; returns GitHub's answer without following it. */
const post = (url: string, m: unknown, path = '/settings/apps/new?state=s1') =>
  fetch(`${url}${path}`, {
    method: 'POST',
    body: new URLSearchParams({ manifest: JSON.stringify(m) }),
    redirect: 'manual',
  });

async function register(url: string, m: unknown) {
  const res = await post(url, m);
  const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
  const conv = await fetch(`${url}/app-manifests/${code}/conversions`, { method: 'POST' });
  return { status: conv.status, app: (await conv.json()) as Record<string, any> };
}

describe('the manifest flow', () => {
  it('redirects back with a code and the state, and trades the code once for the App and a new key', async () => {
    const s = await sim();
    const res = await post(s.url, manifest());
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location')!);
    expect([back.origin + back.pathname, back.searchParams.get('state')]).toEqual([
      'http://127.0.0.1:1/callback',
      's1',
    ]);
    const code = back.searchParams.get('code')!;
    const first = await fetch(`${s.url}/app-manifests/${code}/conversions`, { method: 'POST' });
    expect(first.status).toBe(201);
    const app = (await first.json()) as Record<string, any>;
    expect(app).toMatchObject({
      slug: 'probe',
      name: 'probe',
      owner: { login: 'octocat' },
      external_url: 'https://example.com',
      html_url: `${s.url}/apps/probe`,
      permissions: { metadata: 'read', issues: 'write' },
      events: ['issues'],
    });
    expect(createPublicKey(app.pem).asymmetricKeyType).toBe('rsa');
    expect((await fetch(`${s.url}/app-manifests/${code}/conversions`, { method: 'POST' })).status).toBe(404);
    // Bad credentials are refused even where none are needed.
    const withBad = await fetch(`${s.url}/app-manifests/${code}/conversions`, {
      method: 'POST',
      headers: { authorization: 'token nope' },
    });
    expect(withBad.status).toBe(401);
  });

  it('gives a taken name the next free one, and an organization’s App to the organization', async () => {
    const s = await sim();
    expect((await register(s.url, manifest())).app.slug).toBe('probe');
    expect((await register(s.url, manifest())).app.slug).toBe('probe-2');
    const org = await post(s.url, manifest({ name: 'org-app' }), '/organizations/acme/settings/apps/new');
    const code = new URL(org.headers.get('location')!).searchParams.get('code')!;
    const app = (await (
      await fetch(`${s.url}/app-manifests/${code}/conversions`, { method: 'POST' })
    ).json()) as any;
    expect(app.owner.login).toBe('acme');
    expect((await fetch(`${s.url}/settings/apps/new`)).status).toBe(405);
  });

  it.each([
    [
      { default_events: ['pull_request'] },
      'Default events unsupported: pull_request needs the pull_requests permission, which the manifest does not ask for.',
    ],
    [
      { default_permissions: { issues: 'admin' } },
      'Default permissions: issues must be one of read, write, not &quot;admin&quot;.',
    ],
    [
      { default_permissions: { telepathy: 'read' } },
      'Default permissions: telepathy is not a permission a GitHub App can have.',
    ],
    [{ default_events: ['issuez'] }, 'Default events: issuez is not a webhook event.'],
    [{ url: undefined }, 'Url must be a valid URL (the homepage of the GitHub App).'],
    [{ hook_attributes: {} }, 'Hook attributes url must be a valid URL while the webhook is active.'],
  ])('refuses %j with a 422 page saying why', async (over, message) => {
    const s = await sim();
    const res = await post(s.url, manifest(over));
    expect(res.status).toBe(422);
    expect(await res.text()).toContain(`<p>${message}</p>`);
  });
});

describe('an App registered from a manifest', () => {
  it('may do only what its manifest asked for, and the log says what each request needed', async () => {
    const s = await sim();
    const { app } = await register(
      s.url,
      manifest({ default_permissions: { issues: 'read', contents: 'read' } }),
    );
    await s.createRepo('acme', 'widgets', { fromDir: sampleDir() });
    s.createIssue('acme', 'widgets', { title: 'One' });
    const publicKey = createPublicKey(app.pem).export({ type: 'spki', format: 'pem' }) as string;
    s.installApp({ publicKey, account: 'acme' });
    const clients = createGitHubClients({
      apiUrl: s.url,
      auth: { kind: 'app', appId: String(app.id), privateKey: app.pem },
      paced: false,
    });
    const repo = { forge: 'github' as const, owner: 'acme', name: 'widgets' };
    const gh = await clients.forRepo(repo);
    expect((await gh.rest.issues.get({ owner: 'acme', repo: 'widgets', issue_number: 1 })).data.title).toBe(
      'One',
    );
    const refused = await gh.rest.issues
      .createComment({ owner: 'acme', repo: 'widgets', issue_number: 1, body: 'hi' })
      .catch((e) => e);
    expect([refused.status, refused.response.data.message]).toEqual([
      403,
      'Resource not accessible by integration',
    ]);
    const ready: any = await gh
      .graphql(
        'mutation($id: ID!) { markPullRequestReadyForReview(input: { pullRequestId: $id }) { clientMutationId } }',
        { id: 'PR_x' },
      )
      .catch((e) => e);
    expect(ready.errors).toEqual([{ type: 'FORBIDDEN', message: 'Resource not accessible by integration' }]);
    const push = await pushBranch(
      clients.gitRemoteUrl(repo),
      await clients.gitCredentials({ repo, installationId: null }),
      'b',
    ).catch((e) => e);
    expect(String(push.stderr ?? push)).toContain('Permission to acme/widgets.git denied to probe[bot].');
    expect(s.comments('acme', 'widgets', 1)).toEqual([]);

    // The App's own JWT calls (installation lookup, token) need no permission.
    const log = s.requests().filter((r) => r.login === 'probe[bot]' && r.needs.length > 0);
    expect(log.map((r) => [r.operation, r.status, r.needs.join()])).toEqual([
      ['issues/get', 200, 'issues:read'],
      ['issues/create-comment', 403, 'issues:write'],
      ['graphql', 200, 'pull_requests:write'],
      ['git', 200, 'contents:read'], // the clone: refs, then two upload-pack rounds
      ['git', 200, 'contents:read'],
      ['git', 200, 'contents:read'],
      ['git', 403, 'contents:write'], // the push is refused at its first request
    ]);
  });
});
