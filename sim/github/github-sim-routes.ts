import { newToken } from './github-sim-auth.js';
import { githubTime, issueJson, repoJson, userJson } from './github-sim-json.js';
import { pullAsIssueJson } from './github-sim-json-pulls.js';
import { convertManifestCode } from './github-sim-manifest.js';
import type { OperationId } from './github-sim-operations.js';
import { type Handler, notFound, repoOf } from './github-sim-route-kit.js';
import { actionsHandlers } from './github-sim-routes-actions.js';
import { checksHandlers } from './github-sim-routes-checks.js';
import { commentHandlers } from './github-sim-routes-comments.js';
import { deliveryHandlers } from './github-sim-routes-deliveries.js';
import { escalationHandlers } from './github-sim-routes-escalation.js';
import { pullHandlers } from './github-sim-routes-pulls.js';
import { reviewHandlers } from './github-sim-routes-reviews.js';
import { nodeId } from './github-sim-state.js';
import type { Role } from './github-sim-state-conversation.js';

// The REST operations, one handler each, over the simulator's state. Requests reach them already
// authenticated and validated against GitHub's OpenAPI description; they answer with GitHub's
// status codes and error shapes for what only state can decide (a missing issue, a duplicate PR).
// The Apps, repository and issue operations are here; the others by area in github-sim-routes-*.

/** Operations an App calls with its JWT; every other one needs a token. */
export const appOperations = new Set<OperationId>([
  'apps/get-authenticated',
  'apps/get-repo-installation',
  'apps/create-installation-access-token',
  'apps/list-webhook-deliveries',
  'apps/redeliver-webhook-delivery',
]);

/** Operations anyone may call without credentials. */
export const publicOperations = new Set<OperationId>(['apps/create-from-manifest']);

/** What an App installed without a manifest (by a test or the demo) is taken to have: booty's needs. */
const BOOTY_PERMISSIONS = { issues: 'write', pull_requests: 'write', contents: 'write', metadata: 'read' };

/** When an App installed by a test, which has no registration time, says it was made. */
const APP_EPOCH = '2026-01-01T00:00:00Z';

/** GitHub's `permission` folds the fine roles into four. */
const PERMISSION_OF: Record<Role, string> = {
  admin: 'admin',
  maintain: 'write',
  write: 'write',
  triage: 'read',
  read: 'read',
  none: 'none',
};
const ROLE_RANK: Role[] = ['none', 'read', 'triage', 'write', 'maintain', 'admin'];

const coreHandlers = {
  'apps/get-authenticated': (ctx) => {
    if (ctx.caller.kind !== 'app') return notFound(ctx);
    const { app } = ctx.caller;
    return {
      status: 200,
      body: {
        id: app.id,
        slug: app.slug,
        node_id: nodeId('A', app.id),
        name: app.name ?? app.slug,
        owner: userJson(ctx.urls, app.owner ?? 'simulator'),
        description: app.description ?? null,
        external_url: app.url ?? `${ctx.urls.base}/apps/${app.slug}`,
        html_url: `${ctx.urls.base}/apps/${app.slug}`,
        created_at: app.createdAt ?? APP_EPOCH,
        updated_at: app.createdAt ?? APP_EPOCH,
        permissions: app.permissions ?? BOOTY_PERMISSIONS,
        events: app.events ?? ['issues'],
        installations_count: app.installations.length,
      },
    };
  },

  'apps/get-repo-installation': (ctx) => {
    if (ctx.caller.kind !== 'app') return notFound(ctx);
    const { app } = ctx.caller;
    const repo = ctx.store.repo(ctx.path.owner, ctx.path.repo);
    const installation = app.installations.find(
      (i) => repo && i.account.toLowerCase() === repo.owner.toLowerCase(),
    );
    if (!installation) return notFound(ctx);
    const account = userJson(ctx.urls, installation.account);
    return {
      status: 200,
      body: {
        id: installation.id,
        account,
        access_tokens_url: `${ctx.urls.base}/app/installations/${installation.id}/access_tokens`,
        repositories_url: `${ctx.urls.base}/installation/repositories`,
        html_url: `${ctx.urls.base}/settings/installations/${installation.id}`,
        app_id: app.id,
        app_slug: app.slug,
        target_id: account.id,
        target_type: 'User',
        permissions: app.permissions ?? BOOTY_PERMISSIONS,
        events: app.events ?? ['issues'],
        created_at: app.createdAt ?? APP_EPOCH,
        updated_at: app.createdAt ?? APP_EPOCH,
        single_file_name: null,
        repository_selection: 'all',
        suspended_by: null,
        suspended_at: null,
      },
    };
  },

  'apps/create-installation-access-token': (ctx) => {
    if (ctx.caller.kind !== 'app') return notFound(ctx);
    const { app } = ctx.caller;
    const installation = app.installations.find((i) => i.id === ctx.path.installation_id);
    if (!installation) return notFound(ctx);
    const expiresAt = githubTime(new Date(ctx.now.getTime() + 3600_000));
    const token = newToken('ghs');
    ctx.store.state.tokens.push({
      token,
      kind: 'installation',
      login: `${app.slug}[bot]`,
      installationId: installation.id,
      createdAt: githubTime(ctx.now),
      expiresAt,
    });
    ctx.store.save();
    return {
      status: 201,
      body: {
        token,
        expires_at: expiresAt,
        permissions: ctx.body?.permissions ?? app.permissions ?? BOOTY_PERMISSIONS,
        repository_selection: 'all',
      },
    };
  },

  'apps/create-from-manifest': (ctx) => {
    const app = convertManifestCode({ store: ctx.store, urls: ctx.urls, code: ctx.path.code, now: ctx.now });
    return app ? { status: 201, body: app } : notFound(ctx);
  },

  'repos/get': (ctx) => {
    const repo = repoOf(ctx);
    return repo ? { status: 200, body: repoJson(ctx.urls, repo) } : notFound(ctx);
  },

  'issues/get': (ctx) => {
    const repo = repoOf(ctx);
    const issue = repo?.issues.find((i) => i.number === ctx.path.issue_number);
    if (repo && issue) return { status: 200, body: issueJson(ctx.urls, repo, issue) };
    // A PR is an issue too: the issues API answers for it with a pull_request field.
    const pr = repo?.pulls.find((p) => p.number === ctx.path.issue_number);
    return repo && pr ? { status: 200, body: pullAsIssueJson(ctx.urls, repo, pr) } : notFound(ctx);
  },

  'repos/get-collaborator-permission-level': (ctx) => {
    const repo = repoOf(ctx);
    if (!repo) return notFound(ctx);
    const login: string = ctx.path.username;
    const role: Role =
      login.toLowerCase() === repo.owner.toLowerCase()
        ? 'admin'
        : (Object.entries(repo.roles).find(([l]) => l.toLowerCase() === login.toLowerCase())?.[1] ?? 'read');
    const at = (r: Role) => ROLE_RANK.indexOf(role) >= ROLE_RANK.indexOf(r);
    return {
      status: 200,
      body: {
        permission: PERMISSION_OF[role],
        role_name: role,
        user: {
          ...userJson(ctx.urls, login),
          permissions: {
            admin: at('admin'),
            maintain: at('maintain'),
            push: at('write'),
            triage: at('triage'),
            pull: at('read'),
          },
          role_name: role,
        },
      },
    };
  },
} satisfies Partial<Record<OperationId, Handler>>;

export const handlers: Record<OperationId, Handler> = {
  ...coreHandlers,
  ...commentHandlers,
  ...pullHandlers,
  ...escalationHandlers,
  ...reviewHandlers,
  ...checksHandlers,
  ...actionsHandlers,
  ...deliveryHandlers,
};
