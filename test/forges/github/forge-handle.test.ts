import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startGitHubSimulator } from '../../../sim/github/github-simulator.js';
import { createGitHubClients } from '../../../src/forges/github/clients.js';
import { githubForge } from '../../../src/forges/github/github-forge.js';
import { tempDir } from '../../support/job-harness.js';

// How people call on booty: an App by its own name (its slug, read from GitHub at start), a token by
// BOOTY_HANDLE, and `booty` until either is known.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

describe("booty's handle on GitHub", () => {
  it('is the App’s slug once read from GitHub, and booty before', async () => {
    const sim = await startGitHubSimulator({ dir: tempDir('booty-ghsim-') });
    closers.push(() => sim.close());
    const { publicKey, privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    });
    const { appId } = sim.installApp({ publicKey, account: 'acme', slug: 'acme-booty' });
    const clients = createGitHubClients({
      apiUrl: sim.url,
      auth: { kind: 'app', appId: String(appId), privateKey },
      paced: false,
    });
    const forge = githubForge({ clients });
    expect(forge.handle()).toBe('booty');
    expect(await forge.identify()).toBe('acme-booty');
    expect(forge.handle()).toBe('acme-booty');
  });

  it('is BOOTY_HANDLE with a token, and GitHub is not asked', async () => {
    const sim = await startGitHubSimulator({ dir: tempDir('booty-ghsim-') });
    closers.push(() => sim.close());
    const clients = createGitHubClients({
      apiUrl: sim.url,
      auth: { kind: 'token', token: 'ghp_x' },
      paced: false,
    });
    const forge = githubForge({ clients, handle: 'booty-bot' });
    expect(await forge.identify()).toBe('booty-bot');
    expect(sim.requests()).toEqual([]);
  });
});
