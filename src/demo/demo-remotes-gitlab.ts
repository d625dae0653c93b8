import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startAnthropicSimulator } from '../../sim/anthropic/anthropic-simulator.js';
import type { SimComment, SimIssue, SimPull } from '../../sim/github/github-sim-state.js';
import type { SimReview, SimReviewComment } from '../../sim/github/github-sim-state-conversation.js';
import { ACCESS, type GitLabSimulator, startGitLabSimulator } from '../../sim/gitlab/gitlab-simulator.js';
import { DEMO_BOT, type DemoRemotes, type StartDemoRemotes } from './demo-remotes.js';
import { demoResponder } from './demo-script.js';

// The demo's remotes with GitLab in GitHub's place: the GitLab simulator (sim/gitlab) and the same
// scripted Anthropic. What the demo reads back (the MR as its pull request, the issue's notes as its
// comments) is given in the shapes the demo already reads, so its ending is judged as GitHub's is.
// The CI and review parts of the conversation scenarios are GitHub Actions' and GitHub reviews':
// here they refuse, named, rather than pretend.

const run = promisify(execFile);

const pathOf = (owner: string, name: string) => `${owner}/${name}`;

const unsupported = (what: string) => async (): Promise<never> => {
  throw new Error(`booty demo --forge gitlab does not play ${what} yet`);
};

export const startGitLabDemoRemotes: StartDemoRemotes = async ({ dir, port, token, scenario }) => {
  const start = (p: number) =>
    startGitLabSimulator({ dir, port: p, tokens: [{ token, username: DEMO_BOT }] });
  let gitlab: GitLabSimulator;
  try {
    gitlab = await start(port);
  } catch {
    gitlab = await start(0); // the old port is taken now
  }
  const git = async (owner: string, name: string, ...args: string[]) =>
    (await run('git', ['--git-dir', gitlab.bareDir(pathOf(owner, name)), ...args], { maxBuffer: 1 << 26 }))
      .stdout;
  const anthropic = await startAnthropicSimulator({ responder: demoResponder(scenario) }).catch(
    async (err: unknown) => {
      await gitlab.close();
      throw err;
    },
  );
  const remotes: DemoRemotes = {
    forge: 'gitlab',
    githubUrl: gitlab.url,
    anthropicUrl: anthropic.url,
    pullUrl: (owner, name, n) => `${gitlab.url}/${pathOf(owner, name)}/-/merge_requests/${n}`,
    setWebhook: async (target) => gitlab.setWebhook({ url: target.url, token: target.secret }),
    createRepo: async (owner, name, fromDir) => {
      // On GitLab the repository's settings live in .gitlab/booty.yml.
      const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'booty-demo-gitlab-repo-'));
      try {
        fs.cpSync(fromDir, copy, { recursive: true });
        const github = path.join(copy, '.github', 'booty.yml');
        if (fs.existsSync(github)) {
          fs.mkdirSync(path.join(copy, '.gitlab'));
          fs.renameSync(github, path.join(copy, '.gitlab', 'booty.yml'));
          if (!fs.readdirSync(path.join(copy, '.github')).length) fs.rmdirSync(path.join(copy, '.github'));
        }
        await gitlab.createProject(pathOf(owner, name), { fromDir: copy });
      } finally {
        fs.rmSync(copy, { recursive: true, force: true });
      }
    },
    createIssue: async (owner, name, input) => gitlab.createIssue(pathOf(owner, name), input).iid,
    issues: async (owner, name) =>
      gitlab
        .issues(pathOf(owner, name))
        .map(
          (i) => ({ number: i.iid, title: i.title, labels: i.labels, state: i.state }) as unknown as SimIssue,
        ),
    labelIssue: async (owner, name, issue, label) => {
      gitlab.labelIssue(pathOf(owner, name), issue, label);
      await gitlab.settled();
    },
    unlabelIssue: async (owner, name, issue, label) => {
      gitlab.unlabelIssue(pathOf(owner, name), issue, label);
      await gitlab.settled();
    },
    pulls: async (owner, name) =>
      gitlab.mergeRequests(pathOf(owner, name)).map(
        (mr) =>
          ({
            number: mr.iid,
            draft: /^\s*(\[draft\]|\(draft\)|draft:)/i.test(mr.title),
            headSha: mr.sha,
            state: mr.state,
            title: mr.title,
          }) as unknown as SimPull,
      ),
    comments: async (owner, name, issue) =>
      gitlab
        .notes(pathOf(owner, name), issue)
        .map((n) => ({ id: n.id, body: n.body, author: n.author }) as unknown as SimComment),
    settled: async () => {
      await gitlab.settled();
      return gitlab.deliveries().at(-1)?.uuid ?? null;
    },
    redeliverMissed: async () => {
      const missed = gitlab
        .deliveries()
        .filter((d) => d.status === null || d.status >= 300 || d.status === 0);
      for (const d of missed) await gitlab.redeliver(d.uuid);
      return missed.length;
    },
    person: async (owner, name, login, role) => {
      const level = role === 'admin' ? ACCESS.maintainer : role === 'write' ? ACCESS.developer : ACCESS.guest;
      gitlab.setRole(pathOf(owner, name), login, level);
      const personal = `glpat-${login}-demo-token-0000`;
      gitlab.addToken(personal, login);
      return personal;
    },
    // A review on GitLab is its line comments, each a discussion on the MR's diff.
    review: async (owner, name, pr, reviewer, review) => {
      for (const c of review.comments) gitlab.diffNote(pathOf(owner, name), pr, reviewer, c.body, c);
      await gitlab.settled();
    },
    reviews: async (owner, name, pr) => {
      const mr = gitlab.mergeRequests(pathOf(owner, name)).find((m) => m.iid === pr);
      const authors = new Set((mr?.notes ?? []).filter((n) => n.position).map((n) => n.author));
      return [...authors].map((author) => ({ author }) as unknown as SimReview);
    },
    reviewComments: async (owner, name, pr) => {
      const mr = gitlab.mergeRequests(pathOf(owner, name)).find((m) => m.iid === pr);
      const diff = (mr?.notes ?? []).filter((n) => n.position);
      return diff.map((n) => {
        const first = diff.find((d) => d.discussionId === n.discussionId)!;
        return {
          id: n.id,
          author: n.author,
          body: n.body,
          inReplyTo: first.id === n.id ? null : first.id,
          resolved: n.resolved,
        } as unknown as SimReviewComment;
      });
    },
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
    startCi: unsupported('CI (the ci-red scenario)'),
    completeCi: unsupported('CI (the ci-red scenario)'),
    workflowRuns: async () => [],
    close: async () => {
      await anthropic.close();
      await gitlab.close();
    },
  };
  return remotes;
};
