import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { newToken } from './github-sim-auth.js';
import { type Fault, FaultBook, type FaultTarget } from './github-sim-faults.js';
import { bareDir, createBareRepo, createForkBare } from './github-sim-git.js';
import { Background, HookBus } from './github-sim-hooks.js';
import { githubTime, issueJson, labelJson, type Urls } from './github-sim-json.js';
import { LogLinks } from './github-sim-log-links.js';
import { createDispatcher, type RequestRecord } from './github-sim-server.js';
import {
  nodeId,
  repoKey,
  type SimDelivery,
  type SimIssue,
  SimRepo,
  SimStore,
  type SimToken,
} from './github-sim-state.js';
import { ciApi } from './github-sim-test-ci.js';
import { conversationApi } from './github-sim-test-conversation.js';
import type { WebhookTarget } from './github-sim-webhooks.js';
import type { SimWorld } from './github-sim-world.js';

// A local GitHub for `booty demo` and the tests: a stateful HTTP server for the REST operations and
// the GraphQL mutations booty uses, every request checked against GitHub's published descriptions,
// bare git repositories served over smart HTTP as the remotes, signed webhooks for every change
// (github-sim-hooks.ts), and a scripted CI. The methods below are for tests to set up a world and
// act in it as people do; what booty does goes through HTTP.

type IssueAction = 'labeled' | 'unlabeled' | 'closed';

export interface GitHubSimulatorOptions {
  /** Where the state file and the bare repositories live; a restart in the same dir continues. */
  dir: string;
  /**
   * A change's write to the state file waits up to this long, one write for the changes made
   * meanwhile (SimStore.save); default 0, at once.
   */
  saveWithinMs?: number;
  port?: number;
  host?: string;
  webhook?: WebhookTarget;
  /** Personal tokens the simulator accepts, with the login they act as (default `octocat`). */
  tokens?: (string | { token: string; login?: string })[];
  /**
   * Check every success reply against GitHub's OpenAPI description and note what breaks it in the
   * request log and `problems()`; for the simulator's own tests, as it costs time.
   */
  checkReplies?: boolean;
}

export type GitHubSimulator = Awaited<ReturnType<typeof startGitHubSimulator>>;

export async function startGitHubSimulator(options: GitHubSimulatorOptions) {
  const store = new SimStore(options.dir, options.saveWithinMs);
  const faults = new FaultBook();
  const log: RequestRecord[] = [];
  const urls: Urls = { base: '' };
  const background = new Background();
  const hooks = new HookBus(store, urls, background, options.webhook ?? null);
  const world: SimWorld = { store, urls, root: options.dir, hooks, background, logLinks: new LogLinks() };

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

  // A test's listener for pushes, e.g. to kill the pusher right after its push landed.
  let onPush: ((login: string) => void) | null = null;

  const server = http.createServer(
    createDispatcher({
      store,
      faults,
      log,
      urls,
      root: options.dir,
      world,
      checkReplies: options.checkReplies === true,
      pushed: (login) => onPush?.(login),
    }),
  );

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

  /** A new repository's record, kept in the state file; `fork` names its parent. */
  function addRepo(owner: string, name: string, defaultBranch: string, fork: { forkOf?: string } = {}) {
    const id = store.nextId();
    const repo = SimRepo.parse({
      id,
      nodeId: nodeId('R', id),
      owner,
      name,
      defaultBranch,
      createdAt: now(),
      pushedAt: now(),
      nextNumber: 1,
      issues: [],
      comments: [],
      reactions: [],
      pulls: [],
      ...fork,
    });
    store.state.repos[repoKey(owner, name)] = repo;
    store.save();
    return repo;
  }

  function issueOrThrow(owner: string, name: string, number: number) {
    const repo = repoOrThrow(owner, name);
    const issue = repo.issues.find((i) => i.number === number);
    if (!issue) throw new Error(`the simulator has no issue ${owner}/${name}#${number}`);
    return { repo, issue };
  }

  async function sendIssueEvent(
    owner: string,
    name: string,
    number: number,
    action: IssueAction,
    label: string | undefined,
    sender: string,
  ): Promise<SimDelivery> {
    const { repo, issue } = issueOrThrow(owner, name, number);
    const delivery = await hooks.emit({
      repo,
      event: 'issues',
      action,
      sender,
      fields: {
        issue: issueJson(urls, repo, issue),
        label: label ? labelJson(urls, repo, label) : undefined,
      },
    });
    if (!delivery) throw new Error(`the webhook is not subscribed to issues events`);
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
      hooks.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await background.settled();
      // What a later simulator on the folder reads: every change, the last deliveries' tries too.
      store.write();
    },

    setWebhook(target: WebhookTarget | null) {
      hooks.target = target;
    },

    /** Resolves when every webhook caused so far has been tried and the scripted CI has moved on. */
    settled: () => background.settled(),

    /** Replies that broke GitHub's description (with `checkReplies`), and work after a reply that failed. */
    problems: (): string[] => [...log.flatMap((r) => r.problems), ...background.failures],

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
      if (!repo) repo = addRepo(owner, name, defaultBranch);
      return {
        owner: repo.owner,
        name: repo.name,
        defaultBranch: repo.defaultBranch,
        cloneUrl: `${urls.base}/${repo.owner}/${repo.name}.git`,
        bareDir: bareDir(options.dir, owner, name),
      };
    },

    /** `owner`'s fork of a repository (idempotent): a bare clone of its remote, under the owner's name. */
    async forkRepo(parentOwner: string, name: string, owner: string) {
      const parent = repoOrThrow(parentOwner, name);
      const bare = bareDir(options.dir, owner, name);
      await createForkBare(bareDir(options.dir, parent.owner, parent.name), bare);
      if (!store.repo(owner, name))
        addRepo(owner, name, parent.defaultBranch, { forkOf: `${parent.owner}/${parent.name}` });
      return { owner, name, cloneUrl: `${urls.base}/${owner}/${name}.git`, bareDir: bare };
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
        assignees: [],
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
      if (!hooks.target) throw new Error('the simulator has no webhook URL configured');
      await hooks.redeliver(delivery);
      return delivery;
    },

    fault(target: FaultTarget, fault: Fault, times = 1) {
      faults.add(target, fault, times);
    },
    clearFaults: () => faults.clear(),
    /** Calls `listener` as each push lands, once git has answered it and before anything else; null stops. */
    onPush(listener: ((login: string) => void) | null) {
      onPush = listener;
    },

    issues: (owner: string, name: string) => structuredClone(repoOrThrow(owner, name).issues),
    pulls: (owner: string, name: string) => structuredClone(repoOrThrow(owner, name).pulls),
    comments: (owner: string, name: string, issue?: number) =>
      structuredClone(
        repoOrThrow(owner, name).comments.filter((c) => issue === undefined || c.issueNumber === issue),
      ),
    /** Reactions on issues and PRs themselves (not on their comments: see commentReactions). */
    reactions: (owner: string, name: string, issue?: number) =>
      structuredClone(
        repoOrThrow(owner, name).reactions.filter(
          (r) => r.subject === 'issue' && (issue === undefined || r.issueNumber === issue),
        ),
      ),
    tokensMinted: (): SimToken[] =>
      structuredClone(store.state.tokens.filter((t) => t.kind === 'installation')),
    deliveries: (): SimDelivery[] => structuredClone(store.state.deliveries),
    requests: (): RequestRecord[] => [...log],

    ...conversationApi(world, { repoOrThrow, addToken }),
    ...ciApi(world, { repoOrThrow }),
  };
}
