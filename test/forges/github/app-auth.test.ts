import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startGitHubSimulator } from '../../../sim/github/github-simulator.js';
import { isBootyError } from '../../../src/errors.js';
import { authFromEnv } from '../../../src/forges/github/auth.js';
import { createGitHubClients } from '../../../src/forges/github/clients.js';
import { gitRemoteUrl } from '../../../src/forges/github/git-remote.js';
import { tempDir } from '../../support/job-harness.js';
import { pushBranch, sampleDir } from './sim-fixture.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

function appKey() {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    // GitHub hands out PKCS#1 keys.
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
}

describe('GitHub App auth', () => {
  it('mints an installation token with a JWT and uses it for the API and for git push', async () => {
    const sim = await startGitHubSimulator({ dir: tempDir('booty-ghsim-') });
    closers.push(() => sim.close());
    await sim.createRepo('acme', 'widgets', { fromDir: sampleDir() });
    await sim.createRepo('other', 'private', { fromDir: sampleDir() });
    sim.createIssue('acme', 'widgets', { title: 'Add add()' });
    const { publicKey, privateKey } = appKey();
    const { appId, installationId } = sim.installApp({ publicKey, account: 'acme', slug: 'booty' });
    const keyPath = path.join(tempDir(), 'app.pem');
    fs.writeFileSync(keyPath, privateKey);
    const auth = authFromEnv({
      GITHUB_APP_ID: String(appId),
      GITHUB_PRIVATE_KEY_PATH: keyPath,
      GITHUB_TOKEN: undefined,
      GITHUB_PRIVATE_KEY: undefined,
    });
    const clients = createGitHubClients({ apiUrl: sim.url, auth, paced: false });
    const job = { repo: { forge: 'github' as const, owner: 'acme', name: 'widgets' }, installationId };

    const gh = await clients.forJob(job);
    await gh.rest.issues.createComment({ owner: 'acme', repo: 'widgets', issue_number: 1, body: 'hello' });
    const cred = await clients.gitCredentials(job);
    const sha = await pushBranch(clients.gitRemoteUrl(job.repo), cred, 'booty/issue-1');

    const minted = sim.tokensMinted();
    expect(minted.map((t) => [t.installationId, t.login])).toEqual([[installationId, 'booty[bot]']]);
    expect(cred).toEqual({ username: 'x-access-token', password: minted[0]!.token });
    expect(sim.comments('acme', 'widgets', 1).map((c) => c.author)).toEqual(['booty[bot]']);
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    const pushes = sim
      .requests()
      .filter((r) => r.operation === 'git' && r.path.endsWith('/git-receive-pack'));
    expect(pushes.map((r) => [r.status, r.login])).toEqual([[200, 'booty[bot]']]);

    // Without the delivery's installation id (booty run), the App looks its installation up.
    const lookedUp = createGitHubClients({ apiUrl: sim.url, auth, paced: false });
    const { data } = await (await lookedUp.forRepo(job.repo)).rest.issues.get({
      owner: 'acme',
      repo: 'widgets',
      issue_number: 1,
    });
    expect(data.title).toBe('Add add()');
    expect(
      sim
        .requests()
        .filter((r) => r.operation === 'apps/get-repo-installation')
        .map((r) => r.status),
    ).toEqual([200]);

    // The installation reaches only its own account's repositories.
    const denied = await gh.rest.repos.get({ owner: 'other', repo: 'private' }).catch((e) => e);
    expect(denied.status).toBe(404);
  });

  it('is refused with a key the App was not registered with', async () => {
    const sim = await startGitHubSimulator({ dir: tempDir('booty-ghsim-') });
    closers.push(() => sim.close());
    await sim.createRepo('acme', 'widgets');
    const { appId, installationId } = sim.installApp({ publicKey: appKey().publicKey, account: 'acme' });
    const clients = createGitHubClients({
      apiUrl: sim.url,
      auth: { kind: 'app', appId: String(appId), privateKey: appKey().privateKey },
      paced: false,
    });
    const err = await clients
      .gitCredentials({ repo: { forge: 'github' as const, owner: 'acme', name: 'widgets' }, installationId })
      .catch((e) => e);
    expect(isBootyError(err, 'BOOTY_E_GITHUB_AUTH')).toBe(true);
    expect(err.message).toContain('A JSON web token could not be decoded');
    expect(sim.tokensMinted()).toEqual([]);
  });
});

describe('gitRemoteUrl', () => {
  const repo = { forge: 'github' as const, owner: 'o', name: 'n' };
  it('maps github.com, GitHub Enterprise and any other API URL to the git remote', () => {
    expect(gitRemoteUrl('https://api.github.com', repo)).toBe('https://github.com/o/n.git');
    expect(gitRemoteUrl('https://ghe.example.com/api/v3', repo)).toBe('https://ghe.example.com/o/n.git');
    expect(gitRemoteUrl('https://ghe.example.com/api/v3/', repo)).toBe('https://ghe.example.com/o/n.git');
    expect(gitRemoteUrl('http://127.0.0.1:4000', repo)).toBe('http://127.0.0.1:4000/o/n.git');
  });
});
