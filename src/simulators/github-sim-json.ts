import type { SimComment, SimIssue, SimPull, SimReaction, SimRepo } from './github-sim-state.js';

// How GitHub's REST API spells the simulator's records: the fields booty and octokit read, with
// GitHub's names and URL layout (API under the simulator's URL, html_url at its root).

export interface Urls {
  /** The simulator's base URL: the API and the web pages share it. */
  base: string;
}

/** A time as GitHub writes it: ISO 8601 to the second. */
export const githubTime = (d: Date = new Date()) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

const userId = (login: string) =>
  [...login].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % 10_000_000;

export function userJson(u: Urls, login: string) {
  const bot = login.endsWith('[bot]');
  return {
    login,
    id: userId(login),
    node_id: `${bot ? 'BOT' : 'U'}_kgDO${userId(login)}`,
    avatar_url: `${u.base}/avatars/${encodeURIComponent(login)}`,
    url: `${u.base}/users/${encodeURIComponent(login)}`,
    html_url: `${u.base}/${encodeURIComponent(login)}`,
    type: bot ? 'Bot' : 'User',
    site_admin: false,
  };
}

export function repoJson(u: Urls, repo: SimRepo) {
  const full = `${repo.owner}/${repo.name}`;
  return {
    id: repo.id,
    node_id: repo.nodeId,
    name: repo.name,
    full_name: full,
    private: false,
    owner: userJson(u, repo.owner),
    html_url: `${u.base}/${full}`,
    url: `${u.base}/repos/${full}`,
    clone_url: `${u.base}/${full}.git`,
    default_branch: repo.defaultBranch,
    fork: false,
    archived: false,
    disabled: false,
    visibility: 'public',
    permissions: { admin: true, maintain: true, push: true, triage: true, pull: true },
  };
}

export function labelJson(u: Urls, repo: SimRepo, name: string) {
  return {
    id: userId(`label:${name}`),
    node_id: `LA_kwDO${userId(`label:${name}`)}`,
    url: `${u.base}/repos/${repo.owner}/${repo.name}/labels/${encodeURIComponent(name)}`,
    name,
    color: 'ededed',
    default: false,
    description: null,
  };
}

export function issueJson(u: Urls, repo: SimRepo, issue: SimIssue) {
  const api = `${u.base}/repos/${repo.owner}/${repo.name}`;
  return {
    url: `${api}/issues/${issue.number}`,
    repository_url: api,
    comments_url: `${api}/issues/${issue.number}/comments`,
    html_url: `${u.base}/${repo.owner}/${repo.name}/issues/${issue.number}`,
    id: issue.id,
    node_id: issue.nodeId,
    number: issue.number,
    title: issue.title,
    body: issue.body,
    user: userJson(u, issue.author),
    labels: issue.labels.map((l) => labelJson(u, repo, l)),
    state: issue.state,
    state_reason: issue.state === 'closed' ? 'completed' : null,
    locked: false,
    assignee: null,
    assignees: [],
    milestone: null,
    comments: repo.comments.filter((c) => c.issueNumber === issue.number).length,
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    closed_at: issue.closedAt,
    author_association: issue.author === repo.owner ? 'OWNER' : 'NONE',
  };
}

export function commentJson(u: Urls, repo: SimRepo, c: SimComment) {
  const api = `${u.base}/repos/${repo.owner}/${repo.name}`;
  return {
    id: c.id,
    node_id: c.nodeId,
    url: `${api}/issues/comments/${c.id}`,
    html_url: `${u.base}/${repo.owner}/${repo.name}/issues/${c.issueNumber}#issuecomment-${c.id}`,
    issue_url: `${api}/issues/${c.issueNumber}`,
    body: c.body,
    user: userJson(u, c.author),
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    author_association: c.author === repo.owner ? 'OWNER' : 'NONE',
  };
}

export function reactionJson(u: Urls, r: SimReaction) {
  return {
    id: r.id,
    node_id: `REA_lADO${r.id}`,
    user: userJson(u, r.author),
    content: r.content,
    created_at: r.createdAt,
  };
}

export function pullJson(u: Urls, repo: SimRepo, pr: SimPull) {
  const api = `${u.base}/repos/${repo.owner}/${repo.name}`;
  const ref = (name: string, sha: string) => ({
    label: `${repo.owner}:${name}`,
    ref: name,
    sha,
    user: userJson(u, repo.owner),
    repo: repoJson(u, repo),
  });
  return {
    url: `${api}/pulls/${pr.number}`,
    id: pr.id,
    node_id: pr.nodeId,
    html_url: `${u.base}/${repo.owner}/${repo.name}/pull/${pr.number}`,
    diff_url: `${u.base}/${repo.owner}/${repo.name}/pull/${pr.number}.diff`,
    issue_url: `${api}/issues/${pr.number}`,
    number: pr.number,
    state: pr.state,
    locked: false,
    title: pr.title,
    user: userJson(u, pr.author),
    body: pr.body,
    labels: [],
    draft: pr.draft,
    created_at: pr.createdAt,
    updated_at: pr.updatedAt,
    closed_at: null,
    merged_at: null,
    merge_commit_sha: null,
    head: ref(pr.head, pr.headSha),
    base: ref(pr.base, ''),
    author_association: pr.author === repo.owner ? 'OWNER' : 'NONE',
    merged: false,
    mergeable: null,
    maintainer_can_modify: true,
  };
}
