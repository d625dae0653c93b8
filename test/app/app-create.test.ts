import { createPublicKey } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { startGitHubSimulator } from '../../sim/github/github-simulator.js';
import { appCommand } from '../../src/cli/app-command.js';
import { parse } from '../../src/cli/command.js';
import { loadEnv } from '../../src/env.js';
import { withDotEnv } from '../../src/env-sources.js';
import { authFromEnv } from '../../src/forges/github/auth.js';
import { createGitHubClients } from '../../src/forges/github/clients.js';
import { tempDir } from '../support/job-harness.js';
import { startSmeeChannel } from '../support/smee-channel.js';
import { until } from '../support/until.js';
import { actAsBrowser, runAppCreate } from './manifest-browser.js';

// `booty app create` end to end, over real HTTP: the local page, GitHub's "new App" page and the
// code exchange (the simulator plays GitHub), the .env it writes, and the App those settings are.

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!().catch(() => {});
});

const appYml = parseYaml(fs.readFileSync(path.resolve(import.meta.dirname, '../../app.yml'), 'utf8'));

async function world() {
  const sim = await startGitHubSimulator({ dir: tempDir('booty-ghsim-') });
  closers.push(() => sim.close());
  const smee = await startSmeeChannel();
  closers.push(() => smee.close());
  const dir = tempDir('booty-app-');
  return { sim, smee, dir, envFile: path.join(dir, '.env') };
}

describe('booty app create', () => {
  it('registers the App from app.yml, writes .env, and GitHub then takes the App’s JWTs', async () => {
    const { sim, smee, dir, envFile } = await world();
    const run = runAppCreate(
      { env: envFile, smee: smee.url, name: 'booty-test' },
      { GITHUB_API_URL: sim.url },
    );
    const browser = await actAsBrowser(run.out);

    // The page posts the manifest to GitHub's page, carrying a state GitHub hands back.
    expect(browser.action).toMatch(new RegExp(`^${sim.url}/settings/apps/new\\?state=[0-9a-f]{32}$`));
    const channel = /new smee channel, (\S+);/.exec(run.out.join('\n'))![1]!;
    expect(channel).toMatch(new RegExp(`^${smee.url}/[0-9a-f]{16}$`));
    expect(browser.manifest).toEqual({
      ...appYml,
      name: 'booty-test',
      url: sim.url,
      hook_attributes: { url: channel, active: true },
      redirect_url: browser.pageUrl.replace(/\/$/, '/callback'),
    });
    expect(browser.github.status).toBe(302);
    expect(browser.github.location).toMatch(
      new RegExp(`^${browser.pageUrl}callback\\?code=[0-9a-f]{40}&state=${browser.action.slice(-32)}$`),
    );
    expect(browser.back?.status).toBe(200);
    expect(browser.back?.text).toContain(
      `booty is now the GitHub App booty-test; its settings are in ${envFile}.`,
    );
    expect(await run.exit).toBe(0);

    const text = fs.readFileSync(envFile, 'utf8');
    const written = parseEnv(text);
    expect(text.split('\n').map((l) => /^(\w+)=/.exec(l)?.[1] ?? l.slice(0, 1))).toEqual([
      '#',
      '#',
      'APP_ID',
      'PRIVATE_KEY',
      'WEBHOOK_SECRET',
      'GITHUB_CLIENT_ID',
      'GITHUB_CLIENT_SECRET',
      'WEBHOOK_PROXY_URL',
      'GITHUB_API_URL',
      '',
    ]);
    expect(written.WEBHOOK_PROXY_URL).toBe(channel);
    expect(written.GITHUB_API_URL).toBe(sim.url);
    expect(written.PRIVATE_KEY).toMatch(
      /^-----BEGIN RSA PRIVATE KEY-----\n[\s\S]+\n-----END RSA PRIVATE KEY-----\n$/,
    );
    expect(written.WEBHOOK_SECRET).toMatch(/^[0-9a-f]{40}$/);
    expect(fs.statSync(envFile).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual(['.env']);
    expect(run.out.slice(-3)).toEqual([
      `Created the GitHub App booty-test (id ${written.APP_ID}, owned by octocat): ${sim.url}/apps/booty-test`,
      `Wrote APP_ID, PRIVATE_KEY, WEBHOOK_SECRET, GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET, WEBHOOK_PROXY_URL, GITHUB_API_URL to ${envFile}.`,
      `Next: install it on your repositories at ${sim.url}/apps/booty-test/installations/new, set ANTHROPIC_API_KEY, and run \`booty serve\`.`,
    ]);

    // The settings are the App: installed on an account, its key signs JWTs GitHub accepts.
    const publicKey = createPublicKey(written.PRIVATE_KEY!).export({ type: 'spki', format: 'pem' }) as string;
    const installed = sim.installApp({ publicKey, account: 'acme' });
    expect(String(installed.appId)).toBe(written.APP_ID);
    await sim.createRepo('acme', 'widgets');
    const env = loadEnv(withDotEnv({}, envFile));
    const clients = createGitHubClients({
      apiUrl: env.GITHUB_API_URL,
      auth: authFromEnv(env),
    });
    const gh = await clients.forRepo({ forge: 'github' as const, owner: 'acme', name: 'widgets' });
    const { data } = await gh.rest.repos.get({ owner: 'acme', repo: 'widgets' });
    expect(data.full_name).toBe('acme/widgets');
    expect(sim.tokensMinted().map((t) => t.login)).toEqual(['booty-test[bot]']);

    // The code was good once.
    const again = await fetch(
      `${sim.url}/app-manifests/${/code=([0-9a-f]+)/.exec(browser.github.location!)![1]}/conversions`,
      {
        method: 'POST',
      },
    );
    expect(again.status).toBe(404);
  });

  it('registers under an organization with --org, and uses the given webhook URL', async () => {
    const { sim, envFile } = await world();
    const run = runAppCreate(
      { env: envFile, org: 'acme', 'webhook-url': 'https://booty.example.com/webhooks' },
      { GITHUB_API_URL: sim.url },
    );
    const browser = await actAsBrowser(run.out);
    expect(browser.action).toMatch(new RegExp(`^${sim.url}/organizations/acme/settings/apps/new\\?state=`));
    expect(browser.manifest.hook_attributes).toEqual({
      url: 'https://booty.example.com/webhooks',
      active: true,
    });
    expect(browser.manifest.name).toBe('booty');
    expect(await run.exit).toBe(0);
    expect(run.out.at(-3)).toMatch(/^Created the GitHub App booty \(id \d+, owned by acme\): /);
    expect(Object.keys(parseEnv(fs.readFileSync(envFile, 'utf8')))).not.toContain('WEBHOOK_PROXY_URL');
  });

  it('refuses an existing .env before asking GitHub anything, and with --force replaces only the App settings', async () => {
    const { sim, envFile } = await world();
    const before = [
      '# mine',
      'ANTHROPIC_API_KEY=sk-ant-keep',
      'GITHUB_APP_ID=1',
      'PRIVATE_KEY_PATH=/old/key.pem',
      'PRIVATE_KEY="-----BEGIN RSA PRIVATE KEY-----',
      'old',
      '-----END RSA PRIVATE KEY-----"',
      'LOG_LEVEL=debug',
      '',
    ].join('\n');
    fs.writeFileSync(envFile, before);
    const env = { GITHUB_API_URL: sim.url };
    const refused = runAppCreate({ env: envFile, 'webhook-url': 'https://x.example/webhooks' }, env);
    await expect(refused.exit).rejects.toMatchObject({
      code: 'BOOTY_E_USAGE',
      message: `${envFile} exists; booty will not overwrite it: pass --force to replace its App settings (the rest stays), or --env PATH to write another file; see \`booty app --help\``,
    });
    expect(refused.out).toEqual([]);
    expect(fs.readFileSync(envFile, 'utf8')).toBe(before);

    const forced = runAppCreate(
      { env: envFile, 'webhook-url': 'https://x.example/webhooks', force: true },
      env,
    );
    await actAsBrowser(forced.out);
    expect(await forced.exit).toBe(0);
    const text = fs.readFileSync(envFile, 'utf8');
    expect(
      text.startsWith('# mine\nANTHROPIC_API_KEY=sk-ant-keep\nLOG_LEVEL=debug\n\n# The GitHub App booty'),
    ).toBe(true);
    const after = parseEnv(text);
    expect(after.ANTHROPIC_API_KEY).toBe('sk-ant-keep');
    expect(after.GITHUB_APP_ID).toBeUndefined();
    expect(after.PRIVATE_KEY_PATH).toBeUndefined();
    expect(after.PRIVATE_KEY).toContain('BEGIN RSA PRIVATE KEY');
    expect(loadEnv(withDotEnv({}, envFile)).GITHUB_APP_ID).toBe(after.APP_ID);
  });

  it('ignores a callback that does not carry its state, and fails when GitHub refuses the code', async () => {
    const { sim, envFile } = await world();
    const run = runAppCreate(
      { env: envFile, 'webhook-url': 'https://x.example/webhooks' },
      { GITHUB_API_URL: sim.url },
    );
    await until('the page to open', () => run.out.length > 0);
    const pageUrl = /^Open (\S+) in/.exec(run.out[0]!)![1]!;
    const forged = await fetch(`${pageUrl}callback?code=abc&state=wrong`);
    expect(forged.status).toBe(400);
    const stale = await fetch(`${pageUrl}callback?code=not-a-code&state=${await stateOf(pageUrl)}`);
    expect(stale.status).toBe(502);
    await expect(run.exit).rejects.toMatchObject({
      code: 'BOOTY_E_GITHUB_REQUEST',
      message:
        'GitHub refused POST /app-manifests/{code}/conversions with 404: Not Found; a code works once and for an hour: run booty app create again',
    });
    expect(fs.existsSync(envFile)).toBe(false);
  });
});

describe('the app command', () => {
  it('parses its options, and names the one action it has', async () => {
    const args = parse(appCommand, ['create', '--org', 'acme', '--force', '--port', '0']);
    expect(args).toEqual({ values: { org: 'acme', force: true, port: '0' }, positionals: ['create'] });
    await expect(
      appCommand.run(
        { values: {}, positionals: ['delete'] },
        { out: () => {}, err: () => {}, env: {}, self: 'booty' },
      ),
    ).rejects.toMatchObject({
      code: 'BOOTY_E_USAGE',
      message: 'unknown action "delete"; the action is create; see `booty app --help`',
    });
    expect(() => parse(appCommand, [])).toThrow('missing <action>');
  });

  it("refuses GitHub's web address as GITHUB_API_URL before any App is made, as serve would", async () => {
    const envFile = path.join(tempDir(), '.env');
    const run = runAppCreate({ env: envFile }, { GITHUB_API_URL: 'https://github.com' });
    await expect(run.exit).rejects.toMatchObject({
      code: 'BOOTY_E_ENV_INVALID',
      message: expect.stringContaining("GITHUB_API_URL is invalid: is GitHub's web address"),
    });
    expect(run.out).toEqual([]);
    expect(fs.existsSync(envFile)).toBe(false);
  });
});

async function stateOf(pageUrl: string) {
  const page = await (await fetch(pageUrl)).text();
  return /state=([0-9a-f]{32})/.exec(page)![1]!;
}
