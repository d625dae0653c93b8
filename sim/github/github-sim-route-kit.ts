import { type Caller, mayAccess } from './github-sim-auth.js';
import type { Urls } from './github-sim-json.js';
import type { OperationId } from './github-sim-operations.js';
import type { SimPull, SimRepo, SimStore } from './github-sim-state.js';
import type { SimWorld } from './github-sim-world.js';

// What every REST handler works with: the request as validated, the caller, the world it changes,
// and GitHub's reply shapes for what only state can decide (a missing record, a refused change).

export interface RouteContext {
  store: SimStore;
  urls: Urls;
  root: string;
  world: SimWorld;
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

export type Handler = (ctx: RouteContext) => Reply | Promise<Reply>;
export type Handlers<K extends OperationId> = Record<K, Handler>;

export const message = (
  status: number,
  text: string,
  doc: string,
  extra: Record<string, unknown> = {},
): Reply => ({
  status,
  body: { message: text, ...extra, documentation_url: doc, status: String(status) },
});
export const notFound = (ctx: RouteContext) => message(404, 'Not Found', ctx.documentationUrl);
export const validationFailed = (ctx: RouteContext, errors: Record<string, unknown>[]) =>
  message(422, 'Validation Failed', ctx.documentationUrl, { errors });
/** GitHub's short 422, whose errors are sentences (a review of one's own PR, a line off the diff). */
export const unprocessable = (ctx: RouteContext, errors: string[]) =>
  message(422, 'Unprocessable Entity', ctx.documentationUrl, { errors });

export function repoOf(ctx: RouteContext): SimRepo | null {
  const repo = ctx.store.repo(ctx.path.owner, ctx.path.repo);
  // GitHub hides what a caller may not see behind the same 404 as what does not exist.
  if (!repo || !mayAccess(ctx.store.state, ctx.caller, repo.owner)) return null;
  return repo;
}

export function pullOf(ctx: RouteContext): { repo: SimRepo; pr: SimPull } | null {
  const repo = repoOf(ctx);
  const pr = repo?.pulls.find((p) => p.number === ctx.path.pull_number);
  return repo && pr ? { repo, pr } : null;
}

function page<T>(ctx: RouteContext, items: T[]) {
  const perPage = Math.min(Number(ctx.query.per_page ?? 30), 100);
  const current = Math.max(Number(ctx.query.page ?? 1), 1);
  const last = Math.max(Math.ceil(items.length / perPage), 1);
  const link = (p: number) => {
    const u = new URL(ctx.url.href);
    u.searchParams.set('page', String(p));
    u.searchParams.set('per_page', String(perPage));
    return `${ctx.urls.base}${u.pathname}${u.search}`;
  };
  const links: string[] = [];
  if (current < last) links.push(`<${link(current + 1)}>; rel="next"`, `<${link(last)}>; rel="last"`);
  if (current > 1) links.push(`<${link(1)}>; rel="first"`, `<${link(current - 1)}>; rel="prev"`);
  const headers: Record<string, string> = links.length ? { link: links.join(', ') } : {};
  return { items: items.slice((current - 1) * perPage, current * perPage), headers };
}

/** Pages a list the way GitHub does, with a Link header octokit's paginate follows. */
export function paged<T>(ctx: RouteContext, items: T[]): Reply {
  const { items: body, headers } = page(ctx, items);
  return { status: 200, body, headers };
}

/** Pages a list GitHub wraps in an object with its total (`{ total_count, check_runs }`). */
export function pagedIn<T>(ctx: RouteContext, key: string, items: T[]): Reply {
  const { items: slice, headers } = page(ctx, items);
  return { status: 200, body: { total_count: items.length, [key]: slice }, headers };
}
