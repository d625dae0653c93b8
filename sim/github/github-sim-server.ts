import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { type AuthFailure, authenticate, type Caller, callerLogin, mayAccess } from './github-sim-auth.js';
import { type FaultBook, type FaultTarget, faultReply } from './github-sim-faults.js';
import { forkGrant, ownsFork } from './github-sim-forks.js';
import { bareDir, serveGit } from './github-sim-git.js';
import { branchShas } from './github-sim-git-objects.js';
import { runGraphQL } from './github-sim-graphql.js';
import { graphqlRoots } from './github-sim-graphql-roots.js';
import type { Urls } from './github-sim-json.js';
import { LogLinks, logLinkReply } from './github-sim-log-links.js';
import { MANIFEST_PAGE, registerFromManifest } from './github-sim-manifest.js';
import { matchRoute, notFound, replyProblems, validateRequest } from './github-sim-openapi.js';
import {
  describeNeed,
  gitNeed,
  graphqlNeeds,
  missingNeed,
  type Need,
  operationNeeds,
} from './github-sim-permissions.js';
import { branchesMoved } from './github-sim-pull-lifecycle.js';
import type { Reply } from './github-sim-route-kit.js';
import { appOperations, handlers, publicOperations } from './github-sim-routes.js';
import type { SimStore } from './github-sim-state.js';
import type { SimWorld } from './github-sim-world.js';

// The simulator's request pipeline, in GitHub's order: route (REST by the OpenAPI paths, GraphQL,
// git smart HTTP, the manifest web page, or a signed log link), an armed fault, authentication, the
// permissions of an App registered from a manifest, validation against the published description,
// the handler, and the reply (or, on cue, a dropped connection after the change). A push that moves
// a PR's head synchronizes the PR once git has answered.

export interface RequestRecord {
  method: string;
  path: string;
  operation: FaultTarget | null;
  /** 0 when the reply was lost, or held back, on purpose. */
  status: number;
  login: string | null;
  /** The App permissions the request needed (issues:write, contents:read, ...). */
  needs: string[];
  /** Where the reply broke GitHub's description of it, when replies are checked. */
  problems: string[];
}

export interface DispatchDeps {
  store: SimStore;
  faults: FaultBook;
  log: RequestRecord[];
  urls: Urls;
  root: string;
  world: SimWorld;
  /** Check every success reply against the OpenAPI description (for the tests; it costs time). */
  checkReplies: boolean;
  /** Told of each push the moment git has answered it, before the simulator does anything else. */
  pushed: (login: string) => void;
}

export function createDispatcher(deps: DispatchDeps) {
  const { store, faults, log, urls, world } = deps;

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', urls.base);
    const method = req.method ?? 'GET';
    const record = (
      operation: FaultTarget | null,
      status: number,
      caller: Caller | null = null,
      needs: Need[] = [],
      problems: string[] = [],
    ) =>
      log.push({
        method,
        path: url.pathname,
        operation,
        status,
        login: caller ? callerLogin(store.state, caller) : null,
        needs: needs.map(describeNeed),
        problems,
      });

    const git = /^\/([^/]+)\/([^/]+?)\.git(\/.*)?$/.exec(url.pathname);
    if (git) return handleGit(req, res, url, git[1]!, git[2]!, git[3] ?? '/', record);
    if (LogLinks.isLink(url.pathname)) {
      req.resume();
      const reply = logLinkReply(
        world.logLinks,
        (n) => world.store.repo(n.owner, n.name)?.jobs.find((j) => j.id === n.jobId),
        url,
        new Date(),
      );
      record(null, reply.status);
      res.writeHead(reply.status, reply.headers).end(reply.body);
      return;
    }

    const raw = await readBody(req);
    const manifestPage = MANIFEST_PAGE.exec(url.pathname);
    if (manifestPage) {
      const page =
        method === 'POST'
          ? registerFromManifest({
              store,
              org: manifestPage[1] ? decodeURIComponent(manifestPage[1]) : null,
              form: raw,
              state: url.searchParams.get('state'),
              now: new Date(),
            })
          : { status: 405, headers: { allow: 'POST' }, body: 'POST a form with a manifest field here.' };
      record(null, page.status);
      res.writeHead(page.status, page.headers).end(page.body);
      return;
    }
    const isGraphQL = url.pathname === '/graphql' && method === 'POST';
    const matched = isGraphQL ? null : matchRoute(method, url.pathname);
    const route = matched && 'values' in matched ? matched.route : null;
    const target: FaultTarget | null = isGraphQL ? 'graphql' : (route?.operationId ?? null);
    if (!target) {
      record(null, 404);
      return send(res, notFound());
    }
    const doc = route?.documentationUrl ?? 'https://docs.github.com/graphql';
    const fault = faults.take(target);
    const early = fault && faultReply(fault, doc);
    if (early) {
      record(target, early.status);
      return send(res, early);
    }
    // The connection stays open with no reply; closing the simulator ends it.
    if (fault?.kind === 'hang') return record(target, 0);

    // A public operation takes a request without credentials; with them, they must be good.
    const anonymous = route !== null && publicOperations.has(route.operationId) && !req.headers.authorization;
    const caller: Caller | AuthFailure = anonymous
      ? { kind: 'anonymous' }
      : authenticate(store.state, req.headers.authorization, new Date());
    if ('status' in caller) {
      record(target, 401);
      return send(res, caller as AuthFailure);
    }
    const wantsApp = route ? appOperations.has(route.operationId) : false;
    if (!anonymous && wantsApp !== (caller.kind === 'app')) {
      record(target, 401, caller);
      const message = wantsApp
        ? 'A JSON web token could not be decoded'
        : 'A JSON web token cannot be used to access this endpoint; use an installation access token';
      return send(res, { status: 401, body: { message, documentation_url: doc, status: '401' } });
    }

    let reply: Reply;
    let needs: Need[] = [];
    if (isGraphQL) {
      let request: Record<string, unknown>;
      try {
        request = JSON.parse(raw || '{}');
      } catch {
        record(target, 400, caller);
        return send(res, { status: 400, body: { message: 'Problems parsing JSON', documentation_url: doc } });
      }
      needs = graphqlNeeds(request.query);
      const missing = missingNeed(store.state, caller, needs);
      if (missing) {
        reply = { status: 200, body: { data: null, errors: [forbidden()] } };
      } else if (fault?.kind === 'graphql-error') {
        reply = { status: 200, body: { data: null, errors: [{ type: fault.type, message: fault.message }] } };
      } else {
        reply = { status: 200, body: await runGraphQL(request, graphqlRoots(world, caller)) };
      }
    } else {
      needs = [operationNeeds[route!.operationId]].filter((n): n is Need => n !== null);
      const missing = missingNeed(store.state, caller, needs);
      if (missing) {
        record(target, 403, caller, needs);
        return send(res, {
          status: 403,
          body: { message: forbidden().message, documentation_url: doc, status: '403' },
        });
      }
      const checked = validateRequest(
        route!,
        (matched as { values: Record<string, string> }).values,
        url.searchParams,
        raw,
      );
      if (!checked.ok) {
        record(target, checked.error.status, caller);
        return send(res, checked.error);
      }
      reply = await handlers[route!.operationId]({
        store,
        urls,
        root: deps.root,
        world,
        caller,
        login: callerLogin(store.state, caller) ?? '',
        path: checked.path,
        query: checked.query,
        body: checked.body,
        url,
        documentationUrl: doc,
        now: new Date(),
      });
    }
    if (fault?.kind === 'lost-reply') {
      record(target, 0, caller, needs);
      // The change is stored; the client never hears of it.
      req.socket.destroy();
      return;
    }
    const problems =
      deps.checkReplies && route ? replyProblems(route.operationId, reply.status, reply.body) : [];
    record(target, reply.status, caller, needs, problems);
    send(res, reply);
  }

  async function handleGit(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    owner: string,
    name: string,
    rest: string,
    record: (op: FaultTarget | null, status: number, caller?: Caller | null, needs?: Need[]) => void,
  ) {
    const fault = faults.take('git');
    const early = fault && faultReply(fault, 'https://docs.github.com');
    if (early) {
      record('git', early.status);
      res.writeHead(early.status, { 'content-type': 'text/plain' }).end(JSON.stringify(early.body));
      return;
    }
    const caller = authenticate(store.state, req.headers.authorization, new Date());
    const repo = store.repo(owner, name);
    if ('status' in caller || caller.kind !== 'token') {
      record('git', 401);
      req.resume();
      res
        .writeHead(401, { 'www-authenticate': 'Basic realm="GitHub"', 'content-type': 'text/plain' })
        .end('Authentication failed');
      return;
    }
    // Anyone but a fork's owner reaches it through its parent (github-sim-forks.ts).
    const grant =
      repo?.forkOf && !ownsFork(caller, repo) ? forkGrant(store.state, store, caller, repo) : null;
    if (!repo || (grant ? !grant.read : !mayAccess(store.state, caller, repo.owner))) {
      record('git', 404, caller);
      req.resume();
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Repository not found.');
      return;
    }
    const needs = [gitNeed(rest, url.search)];
    const missing = missingNeed(store.state, caller, needs);
    const pushing = needs[0]!.level === 'write';
    if (missing || (grant && pushing && grant.pushable.length === 0)) {
      record('git', 403, caller, needs);
      req.resume();
      res
        .writeHead(403, { 'content-type': 'text/plain' })
        .end(`Permission to ${repo.owner}/${repo.name}.git denied to ${callerLogin(store.state, caller)}.`);
      return;
    }
    const serve = () =>
      serveGit(req, res, {
        projectRoot: path.join(deps.root, 'git'),
        pathInfo: `/${repo.owner.toLowerCase()}/${repo.name.toLowerCase()}.git${rest}`,
        query: url.search.replace(/^\?/, ''),
        user: caller.token.login,
        ...(grant && pushing && { pushable: grant.pushable }),
      });
    if (req.method === 'POST' && rest === '/git-receive-pack') {
      // Counted as pending from the start, so a test that waits for the simulator sees the push out.
      await world.background.run('push', async () => {
        const bare = bareDir(deps.root, repo.owner, repo.name);
        const before = await branchShas(bare);
        await serve();
        deps.pushed(caller.token.login);
        record('git', res.statusCode, caller, needs);
        const after = await branchShas(bare);
        const moved = [...new Set([...before.keys(), ...after.keys()])]
          .filter((b) => before.get(b) !== after.get(b))
          .map((branch) => ({
            branch,
            before: before.get(branch) ?? null,
            after: after.get(branch) ?? null,
          }));
        await branchesMoved(world, repo, moved, caller.token.login);
      });
      return;
    }
    await serve();
    record('git', res.statusCode, caller, needs);
  }

  return (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent)
        send(res, { status: 500, body: { message: `simulator error: ${(err as Error).message}` } });
      else res.destroy();
    });
  };
}

/**
 * GitHub's refusal of what an App was not granted, in its words: REST answers 403, GraphQL an error
 * of type FORBIDDEN. The request log records what the request needed.
 */
const forbidden = () => ({
  type: 'FORBIDDEN',
  message: 'Resource not accessible by integration',
});

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(
  res: ServerResponse,
  reply: { status: number; body?: unknown; headers?: Record<string, string> },
) {
  const body = reply.body === undefined ? '' : JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    'content-type': 'application/json; charset=utf-8',
    'x-github-media-type': 'github.v3; format=json',
    'x-github-request-id': randomUUID().toUpperCase(),
    'x-ratelimit-limit': '5000',
    'x-ratelimit-remaining': '4999',
    'x-ratelimit-resource': 'core',
    ...reply.headers,
  });
  res.end(body);
}
