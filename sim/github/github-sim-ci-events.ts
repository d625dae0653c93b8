import { branchesAt, readCommit } from './github-sim-git-objects.js';
import {
  checkRunJson,
  checkSuiteJson,
  statusJson,
  workflowJson,
  workflowRunJson,
} from './github-sim-json-ci.js';
import type { SimRepo } from './github-sim-state.js';
import type { SimCheckRun, SimCheckSuite, SimStatus, SimWorkflowRun } from './github-sim-state-ci.js';
import { bareOf, type SimWorld } from './github-sim-world.js';

// The CI webhooks, with the fields GitHub fills: `check_run` (its suite in full), `check_suite`,
// `workflow_run` (with its workflow) and `status` (with the commit and the branches at it).

export function emitCheckRun(
  world: SimWorld,
  repo: SimRepo,
  run: SimCheckRun,
  action: 'created' | 'completed',
  sender: string,
) {
  const suite = repo.checkSuites.find((s) => s.id === run.suiteId)!;
  const apps = world.store.state.apps;
  return world.hooks.emit({
    repo,
    event: 'check_run',
    action,
    sender,
    fields: {
      check_run: {
        ...checkRunJson(world.urls, repo, apps, run),
        check_suite: checkSuiteJson(world.urls, repo, apps, suite),
      },
    },
  });
}

export function emitCheckSuite(world: SimWorld, repo: SimRepo, suite: SimCheckSuite, sender: string) {
  return world.hooks.emit({
    repo,
    event: 'check_suite',
    action: 'completed',
    sender,
    fields: { check_suite: checkSuiteJson(world.urls, repo, world.store.state.apps, suite) },
  });
}

export function emitWorkflowRun(
  world: SimWorld,
  repo: SimRepo,
  run: SimWorkflowRun,
  action: 'requested' | 'in_progress' | 'completed',
) {
  const workflow = repo.workflows.find((w) => w.id === run.workflowId)!;
  return world.hooks.emit({
    repo,
    event: 'workflow_run',
    action,
    sender: run.triggeringActor,
    fields: {
      workflow: workflowJson(world.urls, repo, workflow),
      workflow_run: workflowRunJson(world.urls, repo, run),
    },
  });
}

export async function emitStatus(world: SimWorld, repo: SimRepo, status: SimStatus) {
  const bare = bareOf(world, repo);
  const commit = await readCommit(bare, status.sha);
  const branches = await branchesAt(bare, status.sha);
  const api = `${world.urls.base}/repos/${repo.owner}/${repo.name}`;
  const web = `${world.urls.base}/${repo.owner}/${repo.name}`;
  const json = statusJson(world.urls, repo, status);
  return world.hooks.emit({
    repo,
    event: 'status',
    action: null,
    sender: status.creator,
    fields: {
      id: json.id,
      sha: status.sha,
      name: `${repo.owner}/${repo.name}`,
      target_url: json.target_url,
      avatar_url: json.avatar_url,
      context: json.context,
      description: json.description,
      state: json.state,
      commit: {
        sha: commit.id,
        node_id: `C_kwDO${commit.id.slice(0, 12)}`,
        commit: {
          author: { ...commit.author, date: commit.timestamp },
          committer: { ...commit.committer, date: commit.timestamp },
          message: commit.message,
          tree: { sha: commit.treeId, url: `${api}/git/trees/${commit.treeId}` },
          url: `${api}/git/commits/${commit.id}`,
          comment_count: 0,
        },
        url: `${api}/commits/${commit.id}`,
        html_url: `${web}/commit/${commit.id}`,
        comments_url: `${api}/commits/${commit.id}/comments`,
        author: null,
        committer: null,
        parents: [],
      },
      branches: branches.map((name) => ({
        name,
        commit: { sha: status.sha, url: `${api}/commits/${status.sha}` },
        protected: false,
      })),
      created_at: json.created_at,
      updated_at: json.updated_at,
    },
  });
}
