import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startAnthropicSimulator } from '../../sim/anthropic/anthropic-simulator.js';
import type { CiScriptInput } from '../../sim/github/github-sim-ci-script.js';
import { bareDir } from '../../sim/github/github-sim-git.js';
import type { SimComment, SimIssue, SimPull } from '../../sim/github/github-sim-state.js';
import type { SimWorkflowRun } from '../../sim/github/github-sim-state-ci.js';
import type { Role, SimReview, SimReviewComment } from '../../sim/github/github-sim-state-conversation.js';
import type { WebhookTarget } from '../../sim/github/github-sim-webhooks.js';
import { type GitHubSimulator, startGitHubSimulator } from '../../sim/github/github-simulator.js';
import { demoResponder, type Scenario } from './demo-script.js';

// The two remote services a demo job talks to, GitHub and Anthropic, as the demo drives them. Every
// call is async and takes and returns plain JSON, so the same remotes can run in this process (as
// `booty demo` runs them) or in another one (the job-overhead benchmark, where they stand in for
// machines elsewhere and must not share booty's event loop).

const run = promisify(execFile);

/** The login of the token booty uses on the demo's GitHub. */
export const DEMO_BOT = 'booty-demo';

export interface DemoRemotesOptions {
  /** The GitHub simulator's state directory. */
  dir: string;
  /** The GitHub simulator's port: the one it had before, so links in an earlier log stay valid. */
  port: number;
  /** The personal token booty uses. */
  token: string;
  scenario: Scenario;
  /** How long the model takes to answer each request (the simulator's latencyMs); at once unless set. */
  modelLatencyMs?: number;
  /** The GitHub simulator's saveWithinMs: for the benchmarks, whose simulators never restart. */
  saveWithinMs?: number;
}

export interface DemoRemotes {
  /** The forge the simulator plays; GitHub unless said. */
  forge?: 'github' | 'gitlab';
  /** The forge simulator's address (GitHub's or GitLab's). */
  githubUrl: string;
  /** A pull (merge) request's address, where it is not GitHub's `/pull/N`. */
  pullUrl?(owner: string, name: string, number: number): string;
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
  /** Resolves when every webhook caused so far was tried and CI moved on, with the newest delivery's id. */
  settled(): Promise<string | null>;
  /** Sends again every webhook that reached nobody (booty was stopped), as an App's owner redelivers. */
  redeliverMissed(): Promise<number>;
  /** A person with a role in the repository, and the token their REST calls carry. */
  person(owner: string, name: string, login: string, role: Role): Promise<string>;
  reviews(owner: string, name: string, pr: number): Promise<SimReview[]>;
  /**
   * A person's review with line comments, where the forge is not GitHub (whose REST the demo calls
   * as the reviewer would); resolves once its webhooks were tried.
   */
  review?(
    owner: string,
    name: string,
    pr: number,
    reviewer: string,
    review: { body: string; comments: { path: string; line: number; body: string }[] },
  ): Promise<void>;
  /**
   * A person's comment on an issue, where the forge is not GitHub (whose REST the demo calls as
   * the person would); resolves once its webhooks were tried.
   */
  comment?(owner: string, name: string, issue: number, author: string, body: string): Promise<void>;
  reviewComments(owner: string, name: string, pr: number): Promise<SimReviewComment[]>;
  /** A person's commit on a branch (a new branch starts from the default branch); resolves with its sha. */
  pushCommit(
    owner: string,
    name: string,
    input: { branch: string; files: Record<string, string>; message: string; author: string },
  ): Promise<string>;
  /** The commit a branch points at. */
  headOf(owner: string, name: string, branch: string): Promise<string>;
  /** A commit's files, read from the repository's remote as a CI runner checks it out. */
  filesAt(owner: string, name: string, sha: string): Promise<{ path: string; content: string }[]>;
  /**
   * Scripts CI for a commit and starts its run, as a push runs a workflow; each only once, so a
   * resumed demo keeps the first script and run.
   */
  startCi(
    owner: string,
    name: string,
    input: { branch: string; script: CiScriptInput & { sha: string } },
  ): Promise<void>;
  /** Finishes the CI runs that wait; resolves once their webhooks were tried. */
  completeCi(owner: string, name: string): Promise<void>;
  workflowRuns(owner: string, name: string): Promise<SimWorkflowRun[]>;
  close(): Promise<void>;
}

export type StartDemoRemotes = (options: DemoRemotesOptions) => Promise<DemoRemotes>;

/** Both simulators in this process. */
export const startDemoRemotes: StartDemoRemotes = async ({
  dir,
  port,
  token,
  scenario,
  modelLatencyMs,
  saveWithinMs,
}) => {
  const start = (p: number) =>
    startGitHubSimulator({ dir, port: p, saveWithinMs, tokens: [{ token, login: DEMO_BOT }] });
  let github: GitHubSimulator;
  try {
    github = await start(port);
  } catch {
    github = await start(0); // the old port is taken now
  }
  /** git on a repository's remote, read as a runner or a person would read their clone. */
  const git = async (owner: string, name: string, ...args: string[]) =>
    (await run('git', ['--git-dir', bareDir(github.dir, owner, name), ...args], { maxBuffer: 1 << 26 }))
      .stdout;
  const anthropic = await startAnthropicSimulator({
    responder: demoResponder(scenario),
    latencyMs: modelLatencyMs,
  }).catch(async (err: unknown) => {
    await github.close();
    throw err;
  });
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
    settled: async () => {
      await github.settled();
      return github.deliveries().at(-1)?.id ?? null;
    },
    redeliverMissed: async () => {
      const missed = github.deliveries().filter((d) => d.status === null || d.status >= 300);
      for (const d of missed) await github.redeliver(d.id);
      return missed.length;
    },
    person: async (owner, name, login, role) => {
      github.setRole(owner, name, login, role);
      return github.tokenFor(login);
    },
    reviews: async (owner, name, pr) => github.reviews(owner, name, pr),
    reviewComments: async (owner, name, pr) => github.reviewComments(owner, name, pr),
    pushCommit: (owner, name, input) => github.pushCommit(owner, name, input),
    headOf: async (owner, name, branch) =>
      (await git(owner, name, 'rev-parse', '--verify', `refs/heads/${branch}`)).trim(),
    filesAt: async (owner, name, sha) => {
      const paths = (await git(owner, name, 'ls-tree', '-r', '-z', '--name-only', sha))
        .split('\0')
        .filter(Boolean);
      return Promise.all(
        paths.map(async (p) => ({ path: p, content: await git(owner, name, 'show', `${sha}:${p}`) })),
      );
    },
    startCi: async (owner, name, { branch, script }) => {
      if (!github.ciScripts(owner, name).some((s) => s.sha === script.sha))
        github.scriptCi(owner, name, script);
      if (!github.workflowRuns(owner, name).some((r) => r.headSha === script.sha))
        await github.runCi(owner, name, { sha: script.sha, branch });
    },
    completeCi: async (owner, name) => {
      await github.completeCi(owner, name);
    },
    workflowRuns: async (owner, name) => github.workflowRuns(owner, name),
    close: async () => {
      await anthropic.close();
      await github.close();
    },
  };
};
