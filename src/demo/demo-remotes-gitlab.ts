import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startAnthropicSimulator } from '../../sim/anthropic/anthropic-simulator.js';
import type { SimComment, SimIssue, SimPull } from '../../sim/github/github-sim-state.js';
import type { CiJob, SimWorkflowRun } from '../../sim/github/github-sim-state-ci.js';
import type { SimReview, SimReviewComment } from '../../sim/github/github-sim-state-conversation.js';
import { ACCESS, type GitLabSimulator, startGitLabSimulator } from '../../sim/gitlab/gitlab-simulator.js';
import { DEMO_BOT, type DemoRemotes, type StartDemoRemotes } from './demo-remotes.js';
import { demoResponder } from './demo-script.js';

// The demo's remotes with GitLab in GitHub's place: the GitLab simulator (sim/gitlab) and the same
// scripted Anthropic. What the demo reads back (the MR as its pull request, the issue's notes as its
// comments) is given in the shapes the demo already reads, so its ending is judged as GitHub's is.
// A review is the reviewer's notes on the MR's diff, and CI a pipeline whose jobs end as the
// demo's runner decided (demo-ci.ts).

const run = promisify(execFile);

const pathOf = (owner: string, name: string) => `${owner}/${name}`;

/** A job's trace as a GitLab runner writes it: a section per step, then the job's end. */
function traceOf(job: CiJob): string {
  const lines: string[] = [];
  job.steps.forEach((step, i) => {
    lines.push(`\u001b[0Ksection_start:${1_700_000_000 + i}:step_${i}\r\u001b[0K${step.name}`);
    lines.push(...step.log.filter((l) => !l.startsWith('##[')));
    lines.push(`\u001b[0Ksection_end:${1_700_000_000 + i}:step_${i}\r\u001b[0K`);
  });
  const failed = job.steps.some((s) => s.conclusion === 'failure');
  lines.push(failed ? 'ERROR: Job failed: exit code 1' : 'Job succeeded');
  return lines.join('\n');
}

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
    // Only the person-pr scenario pushes a person's commit, and it runs on GitHub only (demo-command.ts).
    pushCommit: async () => {
      throw new Error("the GitLab demo has no person's merge request to push to");
    },
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
            head: mr.source_branch,
            // GitHub's word for an open pull request, as the demo reads it.
            state: mr.state === 'opened' ? 'open' : mr.state,
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
    comment: async (owner, name, issue, author, body) => {
      gitlab.comment(pathOf(owner, name), { issue }, author, body);
      await gitlab.settled();
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
    // CI as a GitLab pipeline: each job of the script's answer is a job, its steps its trace's sections.
    startCi: async (owner, name, { branch, script }) => {
      const pwn = pathOf(owner, name);
      if (gitlab.pipelines(pwn).some((p) => p.sha === script.sha)) return;
      const answer = script.heads[0]!;
      const result = Array.isArray(answer) ? answer[0]! : answer;
      gitlab.startPipeline(pwn, {
        sha: script.sha,
        ref: branch,
        jobs: result.jobs.map((j) => ({
          name: j.name,
          status: j.steps.some((st) => st.conclusion === 'failure') ? 'failed' : 'success',
          trace: traceOf(j),
        })),
      });
      await gitlab.settled();
    },
    completeCi: async (owner, name) => {
      gitlab.completePipelines(pathOf(owner, name));
      await gitlab.settled();
    },
    workflowRuns: async (owner, name) =>
      gitlab.pipelines(pathOf(owner, name)).map(
        (p) =>
          ({
            runNumber: p.id,
            attempt: p.retries + 1,
            headSha: p.sha,
            status: p.status === 'pending' || p.status === 'running' ? 'queued' : 'completed',
            plan: [
              {
                jobs: p.jobs.map((j) => ({
                  name: j.name,
                  steps: [
                    { name: j.name, conclusion: j.planned === 'failed' ? 'failure' : 'success', log: [] },
                  ],
                })),
              },
            ],
          }) as unknown as SimWorkflowRun,
      ),
    close: async () => {
      await anthropic.close();
      await gitlab.close();
    },
  };
  return remotes;
};
