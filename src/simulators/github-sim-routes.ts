import { type Caller, mayAccess, newToken } from './github-sim-auth.js';
import { bareDir, branchSha, branchShas, commitsAhead } from './github-sim-git.js';
import {
  commentJson,
  githubTime,
  issueJson,
  pullJson,
  reactionJson,
  repoJson,
  type Urls,
  userJson,
} from './github-sim-json.js';
import { convertManifestCode } from './github-sim-manifest.js';
import type { OperationId } from './github-sim-operations.js';
import { nodeId, type SimRepo, type SimStore } from './github-sim-state.js';

// The REST operations, one handler each, over the simulator's state. Requests reach them already
// authenticated and validated against GitHub's OpenAPI description; they answer with GitHub's
// status codes and error shapes for what only state can decide (a missing issue, a duplicate PR).

export interface RouteContext {
  store: SimStore;
  urls: Urls;
  root: string;
  caller: Caller;
  /** Who acts; empty for an anonymous caller, which reaches only the public operations. */
  login: string;
  path: Record<string, any>;
  query: Record<string, any>;
  body: any;
  url: URL;
  documentationUrl: string;
  now: Date;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Operations an App calls with its JWT; every other one needs a token. */
export const appOperations = new Set<OperationId>([
  'apps/get-authenticated',
  'apps/get-repo-installation',
  'apps/create-installation-access-token',
]);

/** Operations anyone may call without credentials. */
export const publicOperations = new Set<OperationId>(['apps/create-from-manifest']);

/** What an App installed without a manifest (by a test or the demo) is taken to have: booty's needs. */
const BOOTY_PERMISSIONS = { issues: 'write', pull_requests: 'write', contents: 'write', metadata: 'read' };

const message = (status: number, text: string, doc: string, extra: Record<string, unknown> = {}): Reply => ({
  status,
  body: { message: text, ...extra, documentation_url: doc, status: String(status) },
});
const notFound = (ctx: RouteContext) => message(404, 'Not Found', ctx.documentationUrl);
const validationFailed = (ctx: RouteContext, errors: Record<string, unknown>[]) =>
  message(422, 'Validation Failed', ctx.documentationUrl, { errors });

function repoOf(ctx: RouteContext): SimRepo | null {
  const repo = ctx.store.repo(ctx.path.owner, ctx.path.repo);
  // GitHub hides what a caller may not see behind the same 404 as what does not exist.
  if (!repo || !mayAccess(ctx.store.state, ctx.caller, repo.owner)) return null;
  return repo;
}

/** Pages a list the way GitHub does, with a Link header octokit's paginate follows. */
function paged<T>(ctx: RouteContext, items: T[]): Reply {
  const perPage = Math.min(Number(ctx.query.per_page ?? 30), 100);
  const page = Math.max(Number(ctx.query.page ?? 1), 1);
  const last = Math.max(Math.ceil(items.length / perPage), 1);
  const link = (p: number) => {
    const u = new URL(ctx.url.href);
    u.searchParams.set('page', String(p));
    u.searchParams.set('per_page', String(perPage));
    return `${ctx.urls.base}${u.pathname}${u.search}`;
  };
  const links: string[] = [];
  if (page < last) links.push(`<${link(page + 1)}>; rel="next"`, `<${link(last)}>; rel="last"`);
  if (page > 1) links.push(`<${link(1)}>; rel="first"`, `<${link(page - 1)}>; rel="prev"`);
  return {
    status: 200,
    body: items.slice((page - 1) * perPage, page * perPage),
    headers: links.length ? { link: links.join(', ') } : {},
  };
}

type Handler = (ctx: RouteContext) => Reply | Promise<Reply>;

export const handlers: Record<OperationId, Handler> = {
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
        permissions: app.permissions ?? BOOTY_PERMISSIONS,
        events: app.events ?? ['issues'],
        installations_count: app.installations.length,
      },
    };
  },

  'apps/get-repo-installation': (ctx) => {
    if (ctx.caller.kind !== 'app') return notFound(ctx);
    const repo = ctx.store.repo(ctx.path.owner, ctx.path.repo);
    const installation = ctx.caller.app.installations.find(
      (i) => repo && i.account.toLowerCase() === repo.owner.toLowerCase(),
    );
    if (!installation) return notFound(ctx);
    return {
      status: 200,
      body: {
        id: installation.id,
        account: userJson(ctx.urls, installation.account),
        app_id: ctx.caller.app.id,
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
    return repo && issue ? { status: 200, body: issueJson(ctx.urls, repo, issue) } : notFound(ctx);
  },

  'issues/list-comments': (ctx) => {
    const repo = repoOf(ctx);
    if (!repo?.issues.some((i) => i.number === ctx.path.issue_number)) return notFound(ctx);
    const comments = repo.comments.filter((c) => c.issueNumber === ctx.path.issue_number);
    return paged(
      ctx,
      comments.map((c) => commentJson(ctx.urls, repo, c)),
    );
  },

  'issues/create-comment': (ctx) => {
    const repo = repoOf(ctx);
    const target =
      repo?.issues.find((i) => i.number === ctx.path.issue_number) ??
      repo?.pulls.find((p) => p.number === ctx.path.issue_number);
    if (!repo || !target) return notFound(ctx);
    const id = ctx.store.nextId();
    const comment = {
      id,
      nodeId: nodeId('IC', id),
      issueNumber: ctx.path.issue_number,
      body: ctx.body.body,
      author: ctx.login,
      createdAt: githubTime(ctx.now),
      updatedAt: githubTime(ctx.now),
    };
    repo.comments.push(comment);
    ctx.store.save();
    return {
      status: 201,
      body: commentJson(ctx.urls, repo, comment),
      headers: { location: `${ctx.urls.base}/repos/${repo.owner}/${repo.name}/issues/comments/${id}` },
    };
  },

  'issues/update-comment': (ctx) => {
    const repo = repoOf(ctx);
    const comment = repo?.comments.find((c) => c.id === ctx.path.comment_id);
    if (!repo || !comment) return notFound(ctx);
    comment.body = ctx.body.body;
    comment.updatedAt = githubTime(ctx.now);
    ctx.store.save();
    return { status: 200, body: commentJson(ctx.urls, repo, comment) };
  },

  'reactions/create-for-issue': (ctx) => {
    const repo = repoOf(ctx);
    if (!repo?.issues.some((i) => i.number === ctx.path.issue_number)) return notFound(ctx);
    const existing = repo.reactions.find(
      (r) =>
        r.issueNumber === ctx.path.issue_number && r.content === ctx.body.content && r.author === ctx.login,
    );
    // GitHub answers a repeated reaction with the one already there, 200 instead of 201.
    if (existing) return { status: 200, body: reactionJson(ctx.urls, existing) };
    const reaction = {
      id: ctx.store.nextId(),
      issueNumber: ctx.path.issue_number,
      content: ctx.body.content,
      author: ctx.login,
      createdAt: githubTime(ctx.now),
    };
    repo.reactions.push(reaction);
    ctx.store.save();
    return { status: 201, body: reactionJson(ctx.urls, reaction) };
  },

  'pulls/list': async (ctx) => {
    const repo = repoOf(ctx);
    if (!repo) return notFound(ctx);
    const state = ctx.query.state ?? 'open';
    const head = ctx.query.head as string | undefined;
    const pulls = repo.pulls
      .filter((p) => state === 'all' || p.state === state)
      .filter(
        (p) =>
          !head ||
          `${repo.owner}:${p.head}`.toLowerCase() === head.toLowerCase() ||
          (!head.includes(':') && p.head === head),
      )
      .filter((p) => !ctx.query.base || p.base === ctx.query.base)
      .sort((a, b) => (ctx.query.direction === 'asc' ? a.number - b.number : b.number - a.number));
    for (const p of pulls) await refreshHead(ctx, repo, p);
    return paged(
      ctx,
      pulls.map((p) => pullJson(ctx.urls, repo, p)),
    );
  },

  'pulls/create': async (ctx) => {
    const repo = repoOf(ctx);
    if (!repo) return notFound(ctx);
    const { body } = ctx;
    const head = String(body.head).replace(new RegExp(`^${repo.owner}:`, 'i'), '');
    if (!body.title && !body.issue)
      return validationFailed(ctx, [{ resource: 'PullRequest', field: 'title', code: 'missing_field' }]);
    const bare = bareDir(ctx.root, repo.owner, repo.name);
    const shas = await branchShas(bare, [head, body.base]);
    const headSha = shas.get(head);
    if (!headSha) return validationFailed(ctx, [{ resource: 'PullRequest', field: 'head', code: 'invalid' }]);
    if (!shas.get(body.base))
      return validationFailed(ctx, [{ resource: 'PullRequest', field: 'base', code: 'invalid' }]);
    if (repo.pulls.some((p) => p.state === 'open' && p.head === head && p.base === body.base)) {
      return validationFailed(ctx, [
        {
          resource: 'PullRequest',
          code: 'custom',
          message: `A pull request already exists for ${repo.owner}:${head}.`,
        },
      ]);
    }
    if ((await commitsAhead(bare, body.base, head)) === 0) {
      return validationFailed(ctx, [
        { resource: 'PullRequest', code: 'custom', message: `No commits between ${body.base} and ${head}` },
      ]);
    }
    const id = ctx.store.nextId();
    const pr = {
      id,
      nodeId: nodeId('PR', id),
      number: repo.nextNumber++,
      title: body.title ?? '',
      body: body.body ?? '',
      head,
      base: body.base,
      headSha,
      draft: body.draft === true,
      state: 'open' as const,
      author: ctx.login,
      createdAt: githubTime(ctx.now),
      updatedAt: githubTime(ctx.now),
    };
    repo.pulls.push(pr);
    ctx.store.save();
    return {
      status: 201,
      body: pullJson(ctx.urls, repo, pr),
      headers: { location: `${ctx.urls.base}/repos/${repo.owner}/${repo.name}/pulls/${pr.number}` },
    };
  },

  'pulls/get': async (ctx) => {
    const repo = repoOf(ctx);
    const pr = repo?.pulls.find((p) => p.number === ctx.path.pull_number);
    if (!repo || !pr) return notFound(ctx);
    await refreshHead(ctx, repo, pr);
    return { status: 200, body: pullJson(ctx.urls, repo, pr) };
  },

  'pulls/update': (ctx) => {
    const repo = repoOf(ctx);
    const pr = repo?.pulls.find((p) => p.number === ctx.path.pull_number);
    if (!repo || !pr) return notFound(ctx);
    if (typeof ctx.body.title === 'string') pr.title = ctx.body.title;
    if (typeof ctx.body.body === 'string') pr.body = ctx.body.body;
    if (ctx.body.state === 'open' || ctx.body.state === 'closed') pr.state = ctx.body.state;
    if (typeof ctx.body.base === 'string') pr.base = ctx.body.base;
    pr.updatedAt = githubTime(ctx.now);
    ctx.store.save();
    return { status: 200, body: pullJson(ctx.urls, repo, pr) };
  },
};

/** A pushed branch moves the PR's head, as on GitHub. */
async function refreshHead(ctx: RouteContext, repo: SimRepo, pr: SimRepo['pulls'][number]) {
  const sha = await branchSha(bareDir(ctx.root, repo.owner, repo.name), pr.head);
  if (sha && sha !== pr.headSha) {
    pr.headSha = sha;
    ctx.store.save();
  }
}
