import { startAnthropicSimulator } from '../simulators/anthropic-simulator.js';
import type { SimComment, SimIssue, SimPull } from '../simulators/github-sim-state.js';
import type { WebhookTarget } from '../simulators/github-sim-webhooks.js';
import { type GitHubSimulator, startGitHubSimulator } from '../simulators/github-simulator.js';
import { demoResponder, type Scenario } from './demo-script.js';

// The two remote services a demo job talks to, GitHub and Anthropic, as the demo drives them. Every
// call is async and takes and returns plain JSON, so the same remotes can run in this process (as
// `booty demo` runs them) or in another one (the job-overhead benchmark, where they stand in for
// machines elsewhere and must not share booty's event loop).

export interface DemoRemotesOptions {
  /** The GitHub simulator's state directory. */
  dir: string;
  /** The GitHub simulator's port: the one it had before, so links in an earlier log stay valid. */
  port: number;
  /** The personal token booty uses. */
  token: string;
  scenario: Scenario;
}

export interface DemoRemotes {
  githubUrl: string;
  anthropicUrl: string;
  setWebhook(target: WebhookTarget): Promise<void>;
  /** Creates the repository (idempotent), seeded with a directory's files. */
  createRepo(owner: string, name: string, fromDir: string): Promise<void>;
  createIssue(
    owner: string,
    name: string,
    input: { title: string; body: string; author: string },
  ): Promise<number>;
  issues(owner: string, name: string): Promise<SimIssue[]>;
  /** Adds a label and sends the signed `issues.labeled` webhook; resolves once it was tried. */
  labelIssue(owner: string, name: string, issue: number, label: string): Promise<void>;
  unlabelIssue(owner: string, name: string, issue: number, label: string): Promise<void>;
  pulls(owner: string, name: string): Promise<SimPull[]>;
  comments(owner: string, name: string, issue: number): Promise<SimComment[]>;
  close(): Promise<void>;
}

export type StartDemoRemotes = (options: DemoRemotesOptions) => Promise<DemoRemotes>;

/** Both simulators in this process. */
export const startDemoRemotes: StartDemoRemotes = async ({ dir, port, token, scenario }) => {
  const start = (p: number) =>
    startGitHubSimulator({ dir, port: p, tokens: [{ token, login: 'booty-demo' }] });
  let github: GitHubSimulator;
  try {
    github = await start(port);
  } catch {
    github = await start(0); // the old port is taken now
  }
  const anthropic = await startAnthropicSimulator({ responder: demoResponder(scenario) }).catch(
    async (err: unknown) => {
      await github.close();
      throw err;
    },
  );
  return {
    githubUrl: github.url,
    anthropicUrl: anthropic.url,
    setWebhook: async (target) => github.setWebhook(target),
    createRepo: async (owner, name, fromDir) => {
      await github.createRepo(owner, name, { fromDir });
    },
    createIssue: async (owner, name, input) =>
      (github.createIssue(owner, name, input) as { number: number }).number,
    issues: async (owner, name) => github.issues(owner, name),
    labelIssue: async (owner, name, issue, label) => {
      await github.labelIssue(owner, name, issue, label);
    },
    unlabelIssue: async (owner, name, issue, label) => {
      await github.unlabelIssue(owner, name, issue, label);
    },
    pulls: async (owner, name) => github.pulls(owner, name),
    comments: async (owner, name, issue) => github.comments(owner, name, issue),
    close: async () => {
      await anthropic.close();
      await github.close();
    },
  };
};
