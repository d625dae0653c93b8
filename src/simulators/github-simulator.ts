import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { newToken } from './github-sim-auth.js';
import { type Fault, FaultBook, type FaultTarget } from './github-sim-faults.js';
import { bareDir, createBareRepo } from './github-sim-git.js';
import { githubTime, issueJson, type Urls } from './github-sim-json.js';
import { createDispatcher, type RequestRecord } from './github-sim-server.js';
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

  const server = http.createServer(createDispatcher({ store, faults, log, urls, root: options.dir }));

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

  const now = () => githubTime();

  /** Changes an issue as a person would, then sends the webhook GitHub sends for it. */
  function changeIssue(
    owner: string,
    name: string,
    number: number,
    action: IssueAction,
    label: string | undefined,
    sender: string | undefined,
    change: (issue: SimIssue) => void,
  ): Promise<SimDelivery> {
    const { issue } = issueOrThrow(owner, name, number);
    change(issue);
    issue.updatedAt = now();
    return sendIssueEvent(owner, name, number, action, label, sender ?? 'octocat');
  }

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
    labelIssue: (
      owner: string,
      name: string,
      number: number,
      label: string,
      opts: { sender?: string } = {},
    ) =>
      changeIssue(owner, name, number, 'labeled', label, opts.sender, (issue) => {
        if (!issue.labels.includes(label)) issue.labels.push(label);
      }),

    unlabelIssue: (
      owner: string,
      name: string,
      number: number,
      label: string,
      opts: { sender?: string } = {},
    ) =>
      changeIssue(owner, name, number, 'unlabeled', label, opts.sender, (issue) => {
        issue.labels = issue.labels.filter((l) => l !== label);
      }),

    closeIssue: (owner: string, name: string, number: number, opts: { sender?: string } = {}) =>
      changeIssue(owner, name, number, 'closed', undefined, opts.sender, (issue) => {
        issue.state = 'closed';
        issue.closedAt = now();
      }),

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
