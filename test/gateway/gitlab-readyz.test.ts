import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitLabSimulator } from '../../sim/gitlab/gitlab-simulator.js';
import { loadEnv } from '../../src/env.js';
import { startBooty } from '../../src/main/serve.js';
import { tempDir } from '../support/job-harness.js';
import { captureLog } from './gateway-harness.js';

// A booty serving GitLab asks GitLab what its token may do: at start (one line in the log) and in
// /readyz, which fails naming the missing scope or the wrong instance address.

const GOOD = 'glpat-readyz-good-token-0000';
const READ_ONLY = 'glpat-readyz-read-only-token-00';
let gitlab: Awaited<ReturnType<typeof startGitLabSimulator>>;

beforeAll(async () => {
  const dir = tempDir('booty-gitlab-readyz-');
  gitlab = await startGitLabSimulator({
    dir: path.join(dir, 'gitlab'),
    tokens: [
      { token: GOOD, username: 'booty-bot' },
      { token: READ_ONLY, username: 'booty-reader', scopes: ['read_api', 'read_repository'] },
    ],
  });
});
afterAll(() => gitlab.close());

async function readyz(env: { url: string; token: string }) {
  const dir = tempDir('booty-gitlab-readyz-');
  const { log, lines } = captureLog();
  const booty = await startBooty({
    env: loadEnv({
      HOST: '127.0.0.1',
      PORT: '0',
      BOOTY_DB: path.join(dir, 'booty.db'),
      BOOTY_WORKDIR: path.join(dir, 'work'),
      BOOTY_FORGE: 'gitlab',
      GITLAB_URL: env.url,
      GITLAB_TOKEN: env.token,
      GITLAB_WEBHOOK_SECRET: 'readyz-secret',
      ANTHROPIC_API_KEY: 'sk-ant-readyz',
    }),
    log,
  });
  try {
    const res = await fetch(`${booty.server.url}/readyz`);
    return { status: res.status, body: (await res.json()) as any, lines };
  } finally {
    await booty.close();
  }
}

describe('/readyz on GitLab', () => {
  it('is ready with a token that has the api scope', async () => {
    const r = await readyz({ url: gitlab.url, token: GOOD });
    expect(r.status).toBe(200);
    expect(r.body.checks).toContainEqual({ name: 'forge', ok: true });
  });

  it('fails naming the missing api scope, and said so at start in one line', async () => {
    const r = await readyz({ url: gitlab.url, token: READ_ONLY });
    expect(r.status).toBe(503);
    const forge = r.body.checks.find((c: { name: string }) => c.name === 'forge');
    expect(forge.ok).toBe(false);
    expect(forge.reason).toContain('GITLAB_TOKEN');
    expect(forge.reason).toContain('lacks the api scope (it has read_api, read_repository)');
    expect(r.lines.some((l) => l.includes('lacks the api scope'))).toBe(true);
  });

  it('fails naming GITLAB_URL when the address answers no GitLab API', async () => {
    // A server that is not GitLab: the simulator's git side answers 404 for /api/v4 under a path.
    const r = await readyz({ url: `${gitlab.url}/not-gitlab`, token: GOOD });
    expect(r.status).toBe(503);
    const forge = r.body.checks.find((c: { name: string }) => c.name === 'forge');
    expect(forge.reason).toContain('GITLAB_URL');
    expect(forge.reason).toContain("does not answer GitLab's API");
  });
});
