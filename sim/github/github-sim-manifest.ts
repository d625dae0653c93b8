import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { escapeHtml as html } from '../../src/text.js';
import { githubTime, type Urls, userJson } from './github-sim-json.js';
import { nodeId, type SimApp, type SimStore } from './github-sim-state.js';
import subset from './openapi/api.github.com.subset.json' with { type: 'json' };

// GitHub's manifest flow (docs: registering a GitHub App from a manifest). A browser POSTs a form
// with the manifest to <web>/settings/apps/new (or an organization's); GitHub registers the App
// and redirects to the manifest's redirect_url with a temporary code; the code is exchanged once,
// within an hour and without credentials, at POST /app-manifests/{code}/conversions for the App's
// id, secrets and a newly generated private key. The simulator plays the signed-in user pressing
// "Create GitHub App" at once, and checks the manifest as GitHub does.

/** The web page that takes a manifest: group 1 is the organization, if any. */
export const MANIFEST_PAGE = /^\/(?:organizations\/([^/]+)\/)?settings\/apps\/new$/;

/** The signed-in user the simulator's web pages act as. */
const WEB_USER = 'octocat';

type Page = { status: number; headers: Record<string, string>; body: string };

const permissionSchemas = (
  subset.components.schemas as unknown as Record<string, { properties: Record<string, { enum?: string[] }> }>
)['app-permissions']!.properties;

const webhookEvents = new Set(
  (createRequire(import.meta.url)('@octokit/webhooks-examples') as { name: string }[]).map((d) => d.name),
);

/** The permission an event needs before an App may subscribe to it (those booty could use). */
const eventPermission: Record<string, string> = {
  issues: 'issues',
  issue_comment: 'issues',
  label: 'issues',
  milestone: 'issues',
  pull_request: 'pull_requests',
  pull_request_review: 'pull_requests',
  pull_request_review_comment: 'pull_requests',
  pull_request_review_thread: 'pull_requests',
  push: 'contents',
  create: 'contents',
  delete: 'contents',
  release: 'contents',
  check_run: 'checks',
  check_suite: 'checks',
  status: 'statuses',
  workflow_run: 'actions',
  workflow_job: 'actions',
};

const page = (status: number, title: string, text: string, headers: Record<string, string> = {}): Page => ({
  status,
  headers: { 'content-type': 'text/html; charset=utf-8', ...headers },
  body: `<!doctype html><title>${html(title)}</title><h1>${html(title)}</h1><p>${html(text)}</p>`,
});

/** A manifest as the simulator reads it, once manifestProblem() found nothing wrong with it. */
interface Manifest {
  name?: unknown;
  description?: unknown;
  url: string;
  redirect_url?: string;
  default_permissions?: Record<string, string>;
  default_events?: string[];
}

/** Why GitHub would refuse this manifest, or null. */
function manifestProblem(value: unknown): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return 'The manifest must be a JSON object.';
  const m = value as Record<string, unknown>;
  const isUrl = (v: unknown) => typeof v === 'string' && /^https?:\/\/[^\s]+$/.test(v);
  if (!isUrl(m.url)) return 'Url must be a valid URL (the homepage of the GitHub App).';
  if (m.redirect_url !== undefined && !isUrl(m.redirect_url)) return 'Redirect url must be a valid URL.';
  const hook = m.hook_attributes as { active?: unknown; url?: unknown } | undefined;
  if (hook !== undefined && hook.active !== false && !isUrl(hook.url))
    return 'Hook attributes url must be a valid URL while the webhook is active.';
  const permissions = (m.default_permissions ?? {}) as Record<string, unknown>;
  for (const [name, level] of Object.entries(permissions)) {
    const known = permissionSchemas[name];
    if (!known) return `Default permissions: ${name} is not a permission a GitHub App can have.`;
    if (!known.enum?.includes(level as string))
      return `Default permissions: ${name} must be one of ${known.enum?.join(', ')}, not ${JSON.stringify(level)}.`;
  }
  for (const event of (m.default_events ?? []) as string[]) {
    if (!webhookEvents.has(event)) return `Default events: ${event} is not a webhook event.`;
    const needed = eventPermission[event];
    if (needed && !permissions[needed])
      return `Default events unsupported: ${event} needs the ${needed} permission, which the manifest does not ask for.`;
  }
  return null;
}

/** The user pressed "Create GitHub App" on the page the form opened: register it, then redirect. */
export function registerFromManifest(input: {
  store: SimStore;
  org: string | null;
  form: string;
  state: string | null;
  now: Date;
}): Page {
  const { store } = input;
  const raw = new URLSearchParams(input.form).get('manifest');
  if (raw === null) return page(422, 'Invalid manifest', 'The form has no manifest field.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return page(422, 'Invalid manifest', 'The manifest is not valid JSON.');
  }
  const problem = manifestProblem(parsed);
  if (problem) return page(422, 'Invalid manifest', problem);
  const manifest = parsed as Manifest;
  if (!manifest.redirect_url)
    return page(422, 'Invalid manifest', 'The simulator needs a redirect_url to hand the code back.');

  // GitHub asks for another name when one is taken; the simulated user picks the next free one.
  const wanted = String(manifest.name ?? 'GitHub App').slice(0, 34);
  let name = wanted;
  for (let n = 2; store.state.apps.some((a) => (a.name ?? a.slug).toLowerCase() === name.toLowerCase()); n++)
    name = `${wanted}-${n}`;
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, // GitHub hands out PKCS#1
  });
  const app: SimApp = {
    id: store.nextId(),
    slug: name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, ''),
    publicKey,
    installations: [],
    name,
    owner: input.org ?? WEB_USER,
    description: typeof manifest.description === 'string' ? manifest.description : null,
    url: manifest.url,
    permissions: { metadata: 'read', ...manifest.default_permissions },
    events: [...(manifest.default_events ?? [])],
    webhookSecret: randomBytes(20).toString('hex'),
    clientId: `Iv23li${randomBytes(7).toString('hex')}`,
    clientSecret: randomBytes(20).toString('hex'),
    createdAt: githubTime(input.now),
  };
  const code = randomBytes(20).toString('hex');
  store.state.apps.push(app);
  store.state.manifestCodes.push({
    code,
    appId: app.id,
    pem: privateKey,
    expiresAt: githubTime(new Date(input.now.getTime() + 3600_000)),
  });
  store.save();
  const back = new URL(manifest.redirect_url);
  back.searchParams.set('code', code);
  if (input.state !== null) back.searchParams.set('state', input.state);
  return page(302, 'Redirecting', `The GitHub App ${name} was created.`, { location: back.href });
}

/** POST /app-manifests/{code}/conversions: the App, its secrets and its key, once per code. */
export function convertManifestCode(input: { store: SimStore; urls: Urls; code: string; now: Date }) {
  const { store, urls } = input;
  const entry = store.state.manifestCodes.find((c) => c.code === input.code);
  const app = entry && store.state.apps.find((a) => a.id === entry.appId);
  if (!entry || !app || entry.pem === null || Date.parse(entry.expiresAt) <= input.now.getTime()) return null;
  const pem = entry.pem;
  entry.pem = null; // exchanged once: the key is GitHub's to forget
  store.save();
  return {
    id: app.id,
    slug: app.slug,
    node_id: nodeId('A', app.id),
    client_id: app.clientId,
    owner: userJson(urls, app.owner ?? WEB_USER),
    name: app.name ?? app.slug,
    description: app.description ?? null,
    external_url: app.url ?? null,
    html_url: `${urls.base}/apps/${app.slug}`,
    created_at: app.createdAt,
    updated_at: app.createdAt,
    permissions: app.permissions,
    events: app.events,
    installations_count: 0,
    client_secret: app.clientSecret,
    webhook_secret: app.webhookSecret,
    pem,
  };
}
