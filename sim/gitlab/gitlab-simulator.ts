import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createBareRepo, serveGit } from '../github/github-sim-git.js';
import { callRecorder, routePattern } from './gitlab-sim-calls.js';
import { GlHooks, type GlWebhookTarget } from './gitlab-sim-hooks.js';
import { type Ctx, newNote, type Reply, routes } from './gitlab-sim-routes.js';
import { type GlIssue, type GlNote, type GlProject, GlStore } from './gitlab-sim-state.js';

// A local GitLab for `booty demo --forge gitlab` and the tests: REST v4 under /api/v4 for what booty
// calls (gitlab-sim-routes.ts), each project's remote a real bare git repository served over smart
// HTTP at /<group>/<project>.git, and webhooks for every change (gitlab-sim-hooks.ts). The methods
// below are for tests to set up a world and act in it as people do; what booty does goes through HTTP.

export interface GitLabSimulatorOptions {
  /** Where the state file and the bare repositories live; a restart in the same dir continues. */
  dir: string;
  port?: number;
  /** Tokens the simulator accepts (PRIVATE-TOKEN, or a Bearer), with the username they act as and their scopes (default api). */
  tokens?: { token: string; username: string; scopes?: string[] }[];
  webhook?: GlWebhookTarget;
}

export type GitLabSimulator = Awaited<ReturnType<typeof startGitLabSimulator>>;

/** GitLab's access levels (doc/api/members.md). */
export const ACCESS = { guest: 10, reporter: 20, developer: 30, maintainer: 40, owner: 50 } as const;

const MAX_BODY = 1 << 20;

export async function startGitLabSimulator(options: GitLabSimulatorOptions) {
  const store = new GlStore(options.dir);
  let base = '';
  const hooks = new GlHooks(store, () => base);
  const record = callRecorder(options.dir);
  const compiled = routes.map(
    ([method, route, handler]) => [method, route, routePattern(route), handler] as const,
  );
  hooks.target = options.webhook ?? null;
  for (const t of options.tokens ?? []) addToken(t.token, t.username, t.scopes);

  function addToken(token: string, username: string, scopes = ['api']) {
    if (!store.state.tokens.some((t) => t.token === token))
      store.state.tokens.push({ token, username, scopes });
    store.user(username);
    store.save();
  }
  const bare = (p: Pick<GlProject, 'path_with_namespace'>) =>
    path.join(options.dir, 'git', `${p.path_with_namespace.toLowerCase()}.git`);
  const headOf = (p: GlProject, branch: string): string | null => {
    try {
      return execFileSync('git', ['--git-dir', bare(p), 'rev-parse', '--verify', `refs/heads/${branch}`], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim();
    } catch {
      return null;
    }
  };
  const tokenOf = (req: http.IncomingMessage) => {
    const auth = req.headers.authorization;
    const basic = auth?.startsWith('Basic ')
      ? Buffer.from(auth.slice(6), 'base64').toString('utf8').split(':').slice(1).join(':')
      : undefined;
    const token =
      (req.headers['private-token'] as string | undefined) ??
      (auth?.startsWith('Bearer ') ? auth.slice(7) : basic);
    return store.state.tokens.find((t) => t.token === token) ?? null;
  };
  const userOf = (req: http.IncomingMessage): string | null => tokenOf(req)?.username ?? null;

  /** After a push: each open MR from a moved branch takes the new head, and says so in its hook. */
  function pushed(p: GlProject, before: Map<string, string | null>, user: string) {
    for (const mr of p.mergeRequests.filter((m) => m.state === 'opened')) {
      const head = headOf(p, mr.source_branch);
      if (head && head !== mr.sha && before.has(mr.source_branch)) {
        const oldrev = mr.sha;
        mr.sha = head;
        store.save();
        hooks.mergeRequest(p, mr, user, 'update', { oldrev });
      }
    }
  }

  /** Every request, as tests count what booty did: its method, path and the status answered. */
  const requests: { method: string; path: string; status: number }[] = [];

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://sim');
    res.on('finish', () =>
      requests.push({ method: req.method ?? 'GET', path: url.pathname, status: res.statusCode }),
    );
    const user = userOf(req);
    const git = /^\/(.+?)\.git(\/.*)$/.exec(url.pathname);
    if (git) {
      const p = store.project(git[1]!);
      if (!user) {
        req.resume();
        res.writeHead(401, { 'www-authenticate': 'Basic realm="GitLab"' }).end('HTTP Basic: Access denied');
        return;
      }
      // As GitLab answers a signed-in user: a project that is not there, or not theirs, is not found.
      if (!p || !(user in p.members)) {
        req.resume();
        res
          .writeHead(404, { 'content-type': 'text/plain' })
          .end('The project you were looking for could not be found.');
        return;
      }
      const before = new Map(p.mergeRequests.map((mr) => [mr.source_branch, mr.sha] as const));
      await serveGit(req, res, {
        projectRoot: path.join(options.dir, 'git'),
        pathInfo: `/${p.path_with_namespace.toLowerCase()}.git${git[2]}`,
        query: url.search.slice(1),
        user,
      });
      if (git[2] === '/git-receive-pack') pushed(p, before, user);
      return;
    }
    const send = (reply: Reply, route: string | null = null) => {
      if (url.pathname.startsWith('/api/v4/'))
        record({
          method: req.method ?? 'GET',
          route,
          status: reply.status,
          json: 'json' in reply ? reply.json : undefined,
        });
      const headers: Record<string, string> =
        'json' in reply
          ? { 'content-type': 'application/json', ...(reply.headers ?? {}) }
          : { 'content-type': 'text/plain' };
      res.writeHead(reply.status, headers).end('json' in reply ? JSON.stringify(reply.json) : reply.text);
    };
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of req) {
      size += (c as Buffer).length;
      if (size > MAX_BODY) return send({ status: 413, json: { message: 'Request Entity Too Large' } });
      chunks.push(c as Buffer);
    }
    if (!url.pathname.startsWith('/api/v4/'))
      return send({ status: 404, json: { message: '404 Not Found' } });
    if (!user) return send({ status: 401, json: { message: '401 Unauthorized' } });
    let body: Record<string, unknown> = {};
    const raw = Buffer.concat(chunks).toString('utf8');
    if (raw) {
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return send({ status: 400, json: { error: 'body is not JSON' } });
      }
    }
    for (const [k, v] of url.searchParams) if (req.method !== 'GET' && !(k in body)) body[k] = v;
    const ctx: Ctx = { store, hooks, base, user, path: url.pathname, query: url.searchParams, body, headOf };
    const rest = url.pathname.slice('/api/v4'.length);
    if (rest === '/user')
      return send({ status: 200, json: { id: store.user(user).id, username: user } }, '/user');
    if (rest === '/personal_access_tokens/self') {
      const t = tokenOf(req);
      return send(
        {
          status: 200,
          json: {
            id: 1,
            name: 'booty',
            scopes: t?.scopes ?? ['api'],
            active: true,
            revoked: false,
            expires_at: null,
          },
        },
        '/personal_access_tokens/self',
      );
    }
    const proj = /^\/projects\/([^/]+)(.*)$/.exec(rest);
    const p = proj && store.project(proj[1]!);
    if (!proj || !p) return send({ status: 404, json: { message: '404 Project Not Found' } });
    // GitLab answers a project its token cannot see with 404, as it does one that is not there.
    if (!(user in p.members)) return send({ status: 404, json: { message: '404 Project Not Found' } });
    for (const [method, route, pattern, handler] of compiled) {
      const m = req.method === method ? pattern.exec(proj[2]!) : null;
      if (m) return send(handler(ctx, p, [...m]), `/projects/:id${route}`);
    }
    return send({ status: 404, json: { message: '404 Not Found' } });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: `500 Internal Server Error: ${String(err)}` }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const project = (pathWithNamespace: string): GlProject => {
    const p = store.project(pathWithNamespace);
    if (!p) throw new Error(`no project ${pathWithNamespace}`);
    return p;
  };
  const issue = (pathWithNamespace: string, iid: number): GlIssue => {
    const i = project(pathWithNamespace).issues.find((x) => x.iid === iid);
    if (!i) throw new Error(`no issue ${pathWithNamespace}#${iid}`);
    return i;
  };
  const relabel = (
    pathWithNamespace: string,
    iid: number,
    actor: string,
    change: (labels: string[]) => string[],
  ) => {
    const p = project(pathWithNamespace);
    const i = issue(pathWithNamespace, iid);
    const previous = [...i.labels];
    i.labels = change(previous);
    store.save();
    hooks.issue(p, i, actor, 'update', previous);
  };

  return {
    url: base,
    dir: options.dir,
    bareDir: (pathWithNamespace: string) => bare({ path_with_namespace: pathWithNamespace }),
    setWebhook(target: GlWebhookTarget | null) {
      hooks.target = target;
    },
    addToken,
    /** Creates the project (idempotent), its remote seeded with a directory's files; the bot is a Developer. */
    async createProject(pathWithNamespace: string, opts: { fromDir?: string; defaultBranch?: string } = {}) {
      const defaultBranch = opts.defaultBranch ?? 'main';
      await createBareRepo(bare({ path_with_namespace: pathWithNamespace }), defaultBranch, opts.fromDir);
      if (!store.project(pathWithNamespace)) {
        const members = Object.fromEntries(store.state.tokens.map((t) => [t.username, ACCESS.developer]));
        store.state.projects.push({
          id: store.id(),
          path_with_namespace: pathWithNamespace,
          default_branch: defaultBranch,
          members,
          issues: [],
          mergeRequests: [],
          pipelines: [],
        });
        store.save();
      }
      return project(pathWithNamespace);
    },
    setRole(pathWithNamespace: string, username: string, level: number) {
      project(pathWithNamespace).members[username] = level;
      store.user(username);
      store.save();
    },
    createIssue(
      pathWithNamespace: string,
      input: { title: string; body: string; author: string; labels?: string[] },
    ) {
      const p = project(pathWithNamespace);
      const i: GlIssue = {
        iid: p.issues.length + 1,
        title: input.title,
        description: input.body,
        state: 'opened',
        labels: input.labels ?? [],
        author: input.author,
        notes: [],
        awards: [],
      };
      p.issues.push(i);
      store.user(input.author);
      store.save();
      hooks.issue(p, i, input.author, 'open', null);
      return i;
    },
    labelIssue: (pwn: string, iid: number, label: string, actor = 'root') =>
      relabel(pwn, iid, actor, (l) => (l.includes(label) ? l : [...l, label])),
    unlabelIssue: (pwn: string, iid: number, label: string, actor = 'root') =>
      relabel(pwn, iid, actor, (l) => l.filter((x) => x !== label)),
    closeIssue(pwn: string, iid: number, actor = 'root') {
      const i = issue(pwn, iid);
      i.state = 'closed';
      store.save();
      hooks.issue(project(pwn), i, actor, 'close', null);
    },
    /** A person's note on an issue or an MR, with its Note Hook. */
    comment(pwn: string, on: { issue: number } | { mr: number }, author: string, body: string): GlNote {
      const p = project(pwn);
      const n = newNote(store, author, body);
      if ('issue' in on) {
        const i = issue(pwn, on.issue);
        i.notes.push(n);
        store.save();
        hooks.note(p, n, { issue: i });
      } else {
        const mr = p.mergeRequests.find((m) => m.iid === on.mr)!;
        mr.notes.push(n);
        store.save();
        hooks.note(p, n, { mr });
      }
      return n;
    },
    /** A person's comment on a line of the MR's diff (a DiffNote): a discussion of its own. */
    diffNote(pwn: string, mrIid: number, author: string, body: string, at: { path: string; line: number }) {
      const p = project(pwn);
      const mr = p.mergeRequests.find((m) => m.iid === mrIid)!;
      const n = newNote(store, author, body, { new_path: at.path, new_line: at.line });
      mr.notes.push(n);
      store.save();
      hooks.note(p, n, { mr });
      return n;
    },
    issues: (pwn: string) => project(pwn).issues,
    mergeRequests: (pwn: string) => project(pwn).mergeRequests,
    notes: (pwn: string, iid: number) => issue(pwn, iid).notes,
    /** Runs a pipeline on a commit, finished with the status given, with its Pipeline Hook. */
    runPipeline(pwn: string, input: { sha: string; ref: string; status: string; trace?: string }) {
      const p = project(pwn);
      const id = store.id();
      const pl = {
        id,
        sha: input.sha,
        ref: input.ref,
        status: input.status,
        retries: 0,
        jobs: [{ id: store.id(), name: 'test', status: input.status, trace: input.trace ?? '' }],
      };
      p.pipelines.push(pl);
      store.save();
      const mr = p.mergeRequests.find((m) => m.state === 'opened' && m.source_branch === input.ref) ?? null;
      hooks.pipeline(p, pl, mr);
      return pl;
    },
    /** Starts a pipeline on a commit, its jobs pending until completePipelines ends them as planned. */
    startPipeline(
      pwn: string,
      input: {
        sha: string;
        ref: string;
        jobs: { name: string; status: 'success' | 'failed'; trace: string }[];
      },
    ) {
      const p = project(pwn);
      const pl = {
        id: store.id(),
        sha: input.sha,
        ref: input.ref,
        status: 'pending',
        retries: 0,
        jobs: input.jobs.map((j) => ({
          id: store.id(),
          name: j.name,
          status: 'pending',
          trace: '',
          planned: j.status,
          plannedTrace: j.trace,
        })),
      };
      p.pipelines.push(pl);
      store.save();
      const mr = p.mergeRequests.find((m) => m.state === 'opened' && m.source_branch === input.ref) ?? null;
      hooks.pipeline(p, pl, mr);
      return pl;
    },
    /** Ends every pipeline that waits (new, or retried) as its jobs were planned, with its hook. */
    completePipelines(pwn: string) {
      const p = project(pwn);
      const waiting = p.pipelines.filter((pl) => pl.status === 'pending' || pl.status === 'running');
      for (const pl of waiting) {
        for (const j of pl.jobs) {
          if (j.status !== 'pending' || !j.planned) continue;
          j.status = j.planned;
          j.trace = j.plannedTrace ?? '';
        }
        pl.status = pl.jobs.some((j) => j.status === 'failed') ? 'failed' : 'success';
        store.save();
        const mr = p.mergeRequests.find((m) => m.state === 'opened' && m.source_branch === pl.ref) ?? null;
        hooks.pipeline(p, pl, mr);
      }
      return waiting.length;
    },
    pipelines: (pwn: string) => project(pwn).pipelines,
    deliveries: () => store.state.deliveries,
    redeliver: (uuid: string) => {
      const d = store.state.deliveries.find((x) => x.uuid === uuid);
      if (!d) throw new Error(`no delivery ${uuid}`);
      return hooks.redeliver(d);
    },
    settled: () => hooks.settled(),
    requests: () => requests,
    async close() {
      await hooks.settled();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
