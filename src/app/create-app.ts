import path from 'node:path';
import { z } from 'zod';
import { EnvSchema } from '../env.js';
import { withAliases, withDotEnv } from '../env-sources.js';
import { BootyError } from '../errors.js';
import { checkWritable, type Settings, writeEnvFile } from './env-file.js';
import { bundledManifest, manifestFor, readManifest } from './manifest.js';
import { startManifestFlow } from './manifest-flow.js';

// `booty app create`: GitHub's manifest flow from the terminal. Everything that can be refused is
// refused before the browser is asked to do anything; then a local page sends the manifest to
// GitHub, GitHub sends back a code, the code is exchanged (no credentials needed) for the App's
// id, key and secrets, and those go to .env, which `booty serve` reads.

const Conversion = z.object({
  id: z.number().int(),
  slug: z.string().min(1),
  name: z.string(),
  html_url: z.string(),
  owner: z.object({ login: z.string() }).nullish(),
  pem: z.string().includes('PRIVATE KEY'),
  webhook_secret: z.string().nullish(),
  client_id: z.string(),
  client_secret: z.string(),
});
type Conversion = z.infer<typeof Conversion>;

const usage = (reason: string) => new BootyError('BOOTY_E_USAGE', { command: 'app', reason });

function httpUrl(value: string, what: string): string {
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw usage(`${what} must be an http:// or https:// URL, not ${JSON.stringify(value)}`);
  }
  return value.replace(/\/+$/, '');
}

/** GitHub's web address from its API's: github.com, GitHub Enterprise (/api/v3), or the same origin. */
function webUrlOf(apiUrl: string): string {
  const url = new URL(apiUrl);
  if (url.hostname === 'api.github.com') return 'https://github.com';
  return `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\/api\/v3$/, '')}`;
}

async function smeeChannel(server: string): Promise<string> {
  const { SmeeClient } = await import('smee-client');
  try {
    return await SmeeClient.createChannel({ newChannelUrl: `${server}/new` });
  } catch (err) {
    throw usage(
      `cannot make a webhook channel at ${server}/new (${(err as Error).message}); pass --webhook-url with a URL GitHub can reach, or set WEBHOOK_PROXY_URL`,
    );
  }
}

async function convert(apiUrl: string, code: string): Promise<Conversion> {
  const route = '/app-manifests/{code}/conversions';
  let res: Response;
  try {
    res = await fetch(`${apiUrl}/app-manifests/${encodeURIComponent(code)}/conversions`, {
      method: 'POST',
      headers: {
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        'user-agent': 'booty',
      },
      signal: AbortSignal.timeout(30_000),
    });
  } catch (err) {
    throw usage(`cannot reach GitHub's API at ${apiUrl} (${(err as Error).message}); check GITHUB_API_URL`);
  }
  const body = (await res.json().catch(() => null)) as { message?: string } | null;
  if (res.status !== 201) {
    throw new BootyError('BOOTY_E_GITHUB_REQUEST', {
      method: 'POST',
      url: route,
      status: res.status,
      reason: `${body?.message ?? res.statusText}; a code works once and for an hour: run booty app create again`,
    });
  }
  const parsed = Conversion.safeParse(body);
  if (!parsed.success) {
    throw new BootyError('BOOTY_E_GITHUB_REQUEST', {
      method: 'POST',
      url: route,
      status: res.status,
      reason: `the answer is not a GitHub App (${parsed.error.issues[0]!.path.join('.')}: ${parsed.error.issues[0]!.message})`,
    });
  }
  return parsed.data;
}

/** The command's options, as `booty app create --help` lists them. */
export interface CreateAppOptions {
  org?: string;
  name?: string;
  'webhook-url'?: string;
  env?: string;
  force?: boolean;
  'github-url'?: string;
  manifest?: string;
  smee?: string;
  port?: string;
}

export async function createApp(
  values: CreateAppOptions,
  io: { out: (line: string) => void; env: NodeJS.ProcessEnv },
): Promise<number> {
  const envFile = path.resolve(values.env ?? '.env');
  const force = values.force === true;
  checkWritable(envFile, force);
  const { values: env } = withAliases(withDotEnv(io.env, envFile));
  // The rule serve applies, checked before the browser step: a URL serve would refuse (github.com's
  // web address) would create an App on GitHub whose settings could not be fetched or used.
  const api = EnvSchema.shape.GITHUB_API_URL.safeParse(env.GITHUB_API_URL);
  if (!api.success) {
    throw new BootyError('BOOTY_E_ENV_INVALID', {
      name: 'GITHUB_API_URL',
      reason: `is invalid: ${api.error.issues[0]!.message}`,
    });
  }
  const apiUrl = api.data.replace(/\/+$/, '');
  const webUrl = httpUrl(values['github-url'] ?? webUrlOf(apiUrl), '--github-url');
  const { org } = values;
  if (org !== undefined && !/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/.test(org)) {
    throw usage(`--org must be an organization's login, not ${JSON.stringify(org)}`);
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw usage(`--port must be a port number, not ${JSON.stringify(values.port)}`);
  }
  const template = readManifest(values.manifest ?? bundledManifest);
  const name = values.name ?? template.name ?? 'booty';
  const publicUrl = env.BOOTY_PUBLIC_URL ? httpUrl(env.BOOTY_PUBLIC_URL, 'BOOTY_PUBLIC_URL') : undefined;

  // Webhooks go where they are told, else to the channel or the public URL booty already has; a
  // new smee.io channel is for a first run on a laptop, which GitHub cannot reach.
  const given = values['webhook-url'] ?? env.WEBHOOK_PROXY_URL;
  const channel =
    given === undefined && publicUrl === undefined
      ? await smeeChannel(httpUrl(values.smee ?? 'https://smee.io', '--smee'))
      : undefined;
  const webhookPath = EnvSchema.shape.WEBHOOK_PATH.safeParse(env.WEBHOOK_PATH);
  if (!webhookPath.success) {
    throw new BootyError('BOOTY_E_ENV_INVALID', {
      name: 'WEBHOOK_PATH',
      reason: `is invalid: ${webhookPath.error.issues[0]!.message}`,
    });
  }
  const webhookUrl = httpUrl(
    given ?? channel ?? `${publicUrl!.replace(/\/+$/, '')}${webhookPath.data}`,
    '--webhook-url',
  );
  const proxied = channel !== undefined || (values['webhook-url'] === undefined && env.WEBHOOK_PROXY_URL);

  let created: { app: Conversion; written: string[] } | null = null;
  const flow = await startManifestFlow({
    postTo: `${webUrl}${org ? `/organizations/${encodeURIComponent(org)}` : ''}/settings/apps/new`,
    manifest: (redirectUrl) =>
      manifestFor(template, { name, homepage: publicUrl ?? webUrl, webhookUrl, redirectUrl }),
    port,
    exchange: async (code) => {
      const app = await convert(apiUrl, code);
      const settings: Settings = {
        APP_ID: String(app.id),
        PRIVATE_KEY: app.pem,
        ...(app.webhook_secret ? { WEBHOOK_SECRET: app.webhook_secret } : {}),
        GITHUB_CLIENT_ID: app.client_id,
        GITHUB_CLIENT_SECRET: app.client_secret,
        ...(proxied ? { WEBHOOK_PROXY_URL: webhookUrl } : {}),
        ...(apiUrl !== 'https://api.github.com' ? { GITHUB_API_URL: apiUrl } : {}),
      };
      writeEnvFile({
        file: envFile,
        settings,
        force,
        stale: ['GITHUB_PRIVATE_KEY_PATH'],
        header: [
          `The GitHub App ${app.name} (${app.html_url}), registered by \`booty app create\` on ${new Date().toISOString().slice(0, 10)}.`,
          `Install it on your repositories: ${app.html_url}/installations/new`,
        ],
      });
      created = { app, written: Object.keys(settings) };
      return `booty is now the GitHub App ${app.name}; its settings are in ${envFile}.`;
    },
  });
  try {
    io.out(`Open ${flow.url} in a browser signed in to ${webUrl}.`);
    io.out(
      `It sends booty's manifest (app.yml) to GitHub${org ? ` for the organization ${org}` : ''}, where you create the App; then this command writes ${envFile}.`,
    );
    if (channel)
      io.out(`Webhooks will go through a new smee channel, ${channel}; booty serve listens to it.`);
    await flow.done;
  } finally {
    await flow.close();
  }
  const { app, written } = created!;
  io.out(
    `Created the GitHub App ${app.name} (id ${app.id}${app.owner ? `, owned by ${app.owner.login}` : ''}): ${app.html_url}`,
  );
  io.out(`Wrote ${written.join(', ')} to ${envFile}.`);
  io.out(
    `Next: install it on your repositories at ${app.html_url}/installations/new, set ANTHROPIC_API_KEY, and run \`booty serve\`.`,
  );
  return 0;
}
