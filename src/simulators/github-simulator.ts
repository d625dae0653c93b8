import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type AuthFailure,
  authenticate,
  type Caller,
  callerLogin,
  mayAccess,
  newToken,
} from './github-sim-auth.js';
import { type Fault, FaultBook, type FaultTarget, faultReply } from './github-sim-faults.js';
import { bareDir, createBareRepo, serveGit } from './github-sim-git.js';
import { runGraphQL } from './github-sim-graphql.js';
import { graphqlRoots } from './github-sim-graphql-roots.js';
import { issueJson, type Urls } from './github-sim-json.js';
import { matchRoute, notFound, validateRequest } from './github-sim-openapi.js';
import { appOperations, handlers, type Reply } from './github-sim-routes.js';
import {
  nodeId,
  repoKey,
  type SimDelivery,
  type SimIssue,
  SimStore,
  type SimToken,
} from './github-sim-state.js';
import {
  deliver,
  type IssueAction,
  issuePayload,
  newDelivery,
  type WebhookTarget,
} from './github-sim-webhooks.js';

// A local GitHub for `booty demo` and the tests: a stateful HTTP server for the REST operations and
// the GraphQL mutation booty uses, every request checked against GitHub's published descriptions,
// bare git repositories served over smart HTTP as the remotes, and signed webhooks on labeling.

export interface GitHubSimulatorOptions {
  /** Where the state file and the bare repositories live; a restart in the same dir continues. */
  dir: string;
  port?: number;
  host?: string;
  webhook?: WebhookTarget;
  /** Personal tokens the simulator accepts, with the login they act as (default `octocat`). */
  tokens?: (string | { token: string; login?: string })[];
}

export interface RequestRecord {
  method: string;
  path: string;
  operation: FaultTarget | null;
  /** 0 when the reply was lost on purpose. */
  status: number;
  login: string | null;
}

export type GitHubSimulator = Awaited<ReturnType<typeof startGitHubSimulator>>;

export async function startGitHubSimulator(options: GitHubSimulatorOptions) {
  const store = new SimStore(options.dir);
  const faults = new FaultBook();
  const log: RequestRecord[] = [];
  let webhook = options.webhook ?? null;
  const urls: Urls = { base: '' };

  for (const t of options.tokens ?? []) {
    const { token, login } = typeof t === 'string' ? { token: t, login: undefined } : t;
    addToken(token, login);
  }

  function addToken(token = newToken('ghp'), login = 'octocat'): string {
    if (!store.state.tokens.some((t) => t.token === token)) {
      store.state.tokens.push({
        token,
        kind: 'pat',
        login,
        installationId: null,
        createdAt: new Date().toISOString(),
        expiresAt: null,
      });
      store.save();
    }
    return token;
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent)
        send(res, { status: 500, body: { message: `simulator error: ${(err as Error).message}` } });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', urls.base);
    const method = req.method ?? 'GET';
    const record = (operation: FaultTarget | null, status: number, caller: Caller | null = null) =>
      log.push({
        method,
        path: url.pathname,
        operation,
        status,
        login: caller ? callerLogin(store.state, caller) : null,
      });

    const git = /^\/([^/]+)\/([^/]+?)\.git(\/.*)?$/.exec(url.pathname);
    if (git) return handleGit(req, res, url, git[1]!, git[2]!, git[3] ?? '/', record);

    const raw = await readBody(req);
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

    const caller = authenticate(store.state, req.headers.authorization, new Date());
    if ('status' in caller) {
      record(target, 401);
      return send(res, caller as AuthFailure);
    }
    const wantsApp = route ? appOperations.has(route.operationId) : false;
    if (wantsApp !== (caller.kind === 'app')) {
      record(target, 401, caller);
      const message = wantsApp
        ? 'A JSON web token could not be decoded'
        : 'A JSON web token cannot be used to access this endpoint; use an installation access token';
      return send(res, { status: 401, body: { message, documentation_url: doc, status: '401' } });
    }

    let reply: Reply;
    if (isGraphQL) {
      let request: Record<string, unknown>;
      try {
        request = JSON.parse(raw || '{}');
      } catch {
        record(target, 400, caller);
        return send(res, { status: 400, body: { message: 'Problems parsing JSON', documentation_url: doc } });
      }
      if (fault?.kind === 'graphql-error') {
        reply = { status: 200, body: { data: null, errors: [{ type: fault.type, message: fault.message }] } };
      } else {
        reply = { status: 200, body: await runGraphQL(request, graphqlRoots(store, urls, caller)) };
      }
    } else {
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
        root: options.dir,
        caller,
        login: callerLogin(store.state, caller),
        path: checked.path,
        query: checked.query,
        body: checked.body,
        url,
        documentationUrl: doc,
        now: new Date(),
      });
    }
    if (fault?.kind === 'lost-reply') {
      record(target, 0, caller);
      // The change is stored; the client never hears of it.
      req.socket.destroy();
      return;
    }
    record(target, reply.status, caller);
    send(res, reply);
  }

  async function handleGit(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    owner: string,
    name: string,
    rest: string,
    record: (op: FaultTarget | null, status: number, caller?: Caller | null) => void,
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
    if (!repo || !mayAccess(store.state, caller, repo.owner)) {
      record('git', 404, caller);
      req.resume();
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Repository not found.');
      return;
    }
    await serveGit(req, res, {
      root: options.dir,
      pathInfo: `/${repo.owner.toLowerCase()}/${repo.name.toLowerCase()}.git${rest}`,
      query: url.search.replace(/^\?/, ''),
      user: caller.token.login,
    });
    record('git', res.statusCode, caller);
  }

  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const address = server.address() as AddressInfo;
  urls.base = `http://${options.host ?? '127.0.0.1'}:${address.port}`;

  function repoOrThrow(owner: string, name: string) {
    const repo = store.repo(owner, name);
    if (!repo) throw new Error(`the simulator has no repository ${owner}/${name}`);
    return repo;
  }

  function issueOrThrow(owner: string, name: string, number: number) {
    const repo = repoOrThrow(owner, name);
    const issue = repo.issues.find((i) => i.number === number);
    if (!issue) throw new Error(`the simulator has no issue ${owner}/${name}#${number}`);
    return { repo, issue };
  }

  function installationFor(owner: string): number | null {
    return (
      store.state.apps
        .flatMap((a) => a.installations)
        .find((i) => i.account.toLowerCase() === owner.toLowerCase())?.id ?? null
    );
  }

  async function sendIssueEvent(
    owner: string,
    name: string,
    number: number,
    action: IssueAction,
    label: string | undefined,
    sender: string,
  ) {
    const { repo, issue } = issueOrThrow(owner, name, number);
    const installationId = installationFor(repo.owner);
    const payload = issuePayload(urls, {
      action,
      repo,
      issue,
      label,
      sender,
      installationId,
    });
    const delivery = newDelivery('issues', action, payload);
    store.state.deliveries.push(delivery);
    store.save();
    if (!webhook) return delivery;
    await deliver(webhook, delivery, { id: repo.id, app: installationId !== null });
    store.save();
    return delivery;
  }

  const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

  return {
    url: urls.base,
    dir: options.dir,

    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },

    setWebhook(target: WebhookTarget | null) {
      webhook = target;
    },

    addToken,

    /** Registers a GitHub App by its public key and installs it on an account; idempotent by key. */
    installApp(input: { publicKey: string; account: string; slug?: string }) {
      let app = store.state.apps.find((a) => a.publicKey.trim() === input.publicKey.trim());
      if (!app) {
        app = {
          id: store.nextId(),
          slug: input.slug ?? 'booty',
          publicKey: input.publicKey,
          installations: [],
        };
        store.state.apps.push(app);
      }
      let installation = app.installations.find(
        (i) => i.account.toLowerCase() === input.account.toLowerCase(),
      );
      if (!installation) {
        installation = { id: store.nextId(), account: input.account };
        app.installations.push(installation);
      }
      store.save();
      return { appId: app.id, installationId: installation.id, slug: app.slug };
    },

    /** Creates a repository (idempotent) whose remote is a bare git repository, seeded from a directory. */
    async createRepo(owner: string, name: string, opts: { fromDir?: string; defaultBranch?: string } = {}) {
      const defaultBranch = opts.defaultBranch ?? 'main';
      await createBareRepo(bareDir(options.dir, owner, name), defaultBranch, opts.fromDir);
      let repo = store.repo(owner, name);
      if (!repo) {
        const id = store.nextId();
        repo = {
          id,
          nodeId: nodeId('R', id),
          owner,
          name,
          defaultBranch,
          nextNumber: 1,
          issues: [],
          comments: [],
          reactions: [],
          pulls: [],
        };
        store.state.repos[repoKey(owner, name)] = repo;
        store.save();
      }
      return {
        owner: repo.owner,
        name: repo.name,
        defaultBranch: repo.defaultBranch,
        cloneUrl: `${urls.base}/${repo.owner}/${repo.name}.git`,
        bareDir: bareDir(options.dir, owner, name),
      };
    },

    createIssue(
      owner: string,
      name: string,
      input: { title: string; body?: string; author?: string; labels?: string[] },
    ) {
      const repo = repoOrThrow(owner, name);
      const id = store.nextId();
      const issue: SimIssue = {
        id,
        nodeId: nodeId('I', id),
        number: repo.nextNumber++,
        title: input.title,
        body: input.body ?? '',
        state: 'open',
        labels: input.labels ?? [],
        author: input.author ?? 'octocat',
        createdAt: now(),
        updatedAt: now(),
        closedAt: null,
      };
      repo.issues.push(issue);
      store.save();
      return issueJson(urls, repo, issue);
    },

    /** Adds a label and sends `issues.labeled`; resolves with the delivery once tried. */
    labelIssue(
      owner: string,
      name: string,
      number: number,
      label: string,
      opts: { sender?: string } = {},
    ): Promise<SimDelivery> {
      const { issue } = issueOrThrow(owner, name, number);
      if (!issue.labels.includes(label)) issue.labels.push(label);
      issue.updatedAt = now();
      return sendIssueEvent(owner, name, number, 'labeled', label, opts.sender ?? 'octocat');
    },

    unlabelIssue(
      owner: string,
      name: string,
      number: number,
      label: string,
      opts: { sender?: string } = {},
    ): Promise<SimDelivery> {
      const { issue } = issueOrThrow(owner, name, number);
      issue.labels = issue.labels.filter((l) => l !== label);
      issue.updatedAt = now();
      return sendIssueEvent(owner, name, number, 'unlabeled', label, opts.sender ?? 'octocat');
    },

    closeIssue(
      owner: string,
      name: string,
      number: number,
      opts: { sender?: string } = {},
    ): Promise<SimDelivery> {
      const { issue } = issueOrThrow(owner, name, number);
      issue.state = 'closed';
      issue.closedAt = now();
      issue.updatedAt = now();
      return sendIssueEvent(owner, name, number, 'closed', undefined, opts.sender ?? 'octocat');
    },

    /** Sends a stored delivery again, with the same delivery id, as GitHub's redeliver does. */
    async redeliver(id: string): Promise<SimDelivery> {
      const delivery = store.state.deliveries.find((d) => d.id === id);
      if (!delivery) throw new Error(`no delivery ${id}`);
      if (!webhook) throw new Error('the simulator has no webhook URL configured');
      const sent = JSON.parse(delivery.payload) as { repository?: { id?: number }; installation?: unknown };
      await deliver(webhook, delivery, {
        id: sent.repository?.id ?? 1,
        app: sent.installation !== undefined,
      });
      store.save();
      return delivery;
    },

    fault(target: FaultTarget, fault: Fault, times = 1) {
      faults.add(target, fault, times);
    },
    clearFaults: () => faults.clear(),

    issues: (owner: string, name: string) => structuredClone(repoOrThrow(owner, name).issues),
    pulls: (owner: string, name: string) => structuredClone(repoOrThrow(owner, name).pulls),
    comments: (owner: string, name: string, issue?: number) =>
      structuredClone(
        repoOrThrow(owner, name).comments.filter((c) => issue === undefined || c.issueNumber === issue),
      ),
    reactions: (owner: string, name: string, issue?: number) =>
      structuredClone(
        repoOrThrow(owner, name).reactions.filter((r) => issue === undefined || r.issueNumber === issue),
      ),
    tokensMinted: (): SimToken[] =>
      structuredClone(store.state.tokens.filter((t) => t.kind === 'installation')),
    deliveries: (): SimDelivery[] => structuredClone(store.state.deliveries),
    requests: (): RequestRecord[] => [...log],
  };
}

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
