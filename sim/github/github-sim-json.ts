import type { SimComment, SimIssue, SimReaction, SimRepo } from './github-sim-state.js';

// How GitHub's REST API spells the simulator's records: every field GitHub's OpenAPI description
// requires (the tests hold the replies to it), with GitHub's names and URL layout (the API under
// the simulator's URL, html_url at its root).

export interface Urls {
  /** The simulator's base URL: the API and the web pages share it. */
  base: string;
}

/** A time as GitHub writes it: ISO 8601 to the second. */
export const githubTime = (d: Date = new Date()) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

const userId = (login: string) =>
  [...login].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % 10_000_000;

/** A user as GitHub shows one; a login ending in `[bot]` is an App's bot user, of type Bot. */
export function userJson(u: Urls, login: string) {
  const bot = login.endsWith('[bot]');
  const api = `${u.base}/users/${encodeURIComponent(login)}`;
  return {
    login,
    id: userId(login),
    node_id: `${bot ? 'BOT' : 'U'}_kgDO${userId(login)}`,
    avatar_url: `${u.base}/avatars/${encodeURIComponent(login)}`,
    gravatar_id: '',
    url: api,
    html_url: bot
      ? `${u.base}/apps/${encodeURIComponent(login.replace(/\[bot\]$/, ''))}`
      : `${u.base}/${encodeURIComponent(login)}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type: bot ? 'Bot' : 'User',
    user_view_type: 'public',
    site_admin: false,
  };
}

/** A team of an organization, as a PR's requested teams list it. */
export function teamJson(u: Urls, org: string, slug: string) {
  const id = [...`${org}/${slug}`].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
  return {
    id,
    node_id: `T_${id}`,
    url: `${u.base}/orgs/${org}/teams/${slug}`,
    html_url: `${u.base}/orgs/${org}/teams/${slug}`,
    name: slug,
    slug,
    description: null,
    privacy: 'closed',
    notification_setting: 'notifications_enabled',
    permission: 'push',
    members_url: `${u.base}/orgs/${org}/teams/${slug}/members{/member}`,
    repositories_url: `${u.base}/orgs/${org}/teams/${slug}/repos`,
    parent: null,
    type: 'organization',
  };
}

/** How GitHub relates a user to a repository, as `author_association` says it. */
export function association(repo: SimRepo, login: string): string {
  if (login.toLowerCase() === repo.owner.toLowerCase()) return 'OWNER';
  const role = repo.roles[login];
  return role && role !== 'none' && role !== 'read' ? 'COLLABORATOR' : 'NONE';
}

const REPO_URLS: [string, string][] = [
  ['archive_url', '/{archive_format}{/ref}'],
  ['assignees_url', '/assignees{/user}'],
  ['blobs_url', '/git/blobs{/sha}'],
  ['branches_url', '/branches{/branch}'],
  ['collaborators_url', '/collaborators{/collaborator}'],
  ['comments_url', '/comments{/number}'],
  ['commits_url', '/commits{/sha}'],
  ['compare_url', '/compare/{base}...{head}'],
  ['contents_url', '/contents/{+path}'],
  ['contributors_url', '/contributors'],
  ['deployments_url', '/deployments'],
  ['downloads_url', '/downloads'],
  ['events_url', '/events'],
  ['forks_url', '/forks'],
  ['git_commits_url', '/git/commits{/sha}'],
  ['git_refs_url', '/git/refs{/sha}'],
  ['git_tags_url', '/git/tags{/sha}'],
  ['hooks_url', '/hooks'],
  ['issue_comment_url', '/issues/comments{/number}'],
  ['issue_events_url', '/issues/events{/number}'],
  ['issues_url', '/issues{/number}'],
  ['keys_url', '/keys{/key_id}'],
  ['labels_url', '/labels{/name}'],
  ['languages_url', '/languages'],
  ['merges_url', '/merges'],
  ['milestones_url', '/milestones{/number}'],
  ['notifications_url', '/notifications{?since,all,participating}'],
  ['pulls_url', '/pulls{/number}'],
  ['releases_url', '/releases{/id}'],
  ['stargazers_url', '/stargazers'],
  ['statuses_url', '/statuses/{sha}'],
  ['subscribers_url', '/subscribers'],
  ['subscription_url', '/subscription'],
  ['tags_url', '/tags'],
  ['teams_url', '/teams'],
  ['trees_url', '/git/trees{/sha}'],
];

/** A repository as GitHub shows it inside another record (a check suite, a workflow run). */
export function minimalRepoJson(u: Urls, repo: SimRepo) {
  const full = `${repo.owner}/${repo.name}`;
  const api = `${u.base}/repos/${full}`;
  return {
    id: repo.id,
    node_id: repo.nodeId,
    name: repo.name,
    full_name: full,
    private: false,
    owner: userJson(u, repo.owner),
    html_url: `${u.base}/${full}`,
    description: null,
    fork: false,
    url: api,
    ...Object.fromEntries(REPO_URLS.map(([field, tail]) => [field, `${api}${tail}`])),
  };
}

export function repoJson(u: Urls, repo: SimRepo) {
  const full = `${repo.owner}/${repo.name}`;
  const host = new URL(u.base).host;
  return {
    ...minimalRepoJson(u, repo),
    clone_url: `${u.base}/${full}.git`,
    git_url: `git://${host}/${full}.git`,
    ssh_url: `git@${host}:${full}.git`,
    svn_url: `${u.base}/${full}`,
    mirror_url: null,
    homepage: null,
    language: null,
    license: null,
    size: 0,
    forks: 0,
    forks_count: 0,
    stargazers_count: 0,
    watchers: 0,
    watchers_count: 0,
    open_issues: repo.issues.filter((i) => i.state === 'open').length,
    open_issues_count: repo.issues.filter((i) => i.state === 'open').length,
    default_branch: repo.defaultBranch,
    has_issues: true,
    has_projects: true,
    has_wiki: true,
    has_pages: false,
    has_downloads: true,
    has_discussions: false,
    archived: false,
    disabled: false,
    visibility: 'public',
    pushed_at: repo.pushedAt,
    created_at: repo.createdAt,
    updated_at: repo.pushedAt,
    network_count: 0,
    subscribers_count: 0,
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

const REACTIONS = ['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'eyes', 'rocket'] as const;

/** The reaction counts GitHub puts on an issue or comment. */
export function reactionRollup(
  url: string,
  reactions: SimReaction[],
  on: Pick<SimReaction, 'subject' | 'issueNumber' | 'commentId'>,
) {
  const mine = reactions.filter((r) =>
    on.subject === 'issue'
      ? r.subject === 'issue' && r.issueNumber === on.issueNumber
      : r.subject === on.subject && r.commentId === on.commentId,
  );
  return {
    url,
    total_count: mine.length,
    ...Object.fromEntries(REACTIONS.map((c) => [c, mine.filter((r) => r.content === c).length])),
  };
}

export function issueJson(u: Urls, repo: SimRepo, issue: SimIssue) {
  const api = `${u.base}/repos/${repo.owner}/${repo.name}`;
  const url = `${api}/issues/${issue.number}`;
  return {
    url,
    repository_url: api,
    labels_url: `${url}/labels{/name}`,
    comments_url: `${url}/comments`,
    events_url: `${url}/events`,
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
    assignee: issue.assignees[0] ? userJson(u, issue.assignees[0]) : null,
    assignees: issue.assignees.map((login) => userJson(u, login)),
    milestone: null,
    comments: repo.comments.filter((c) => c.issueNumber === issue.number).length,
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    closed_at: issue.closedAt,
    author_association: association(repo, issue.author),
    reactions: reactionRollup(`${url}/reactions`, repo.reactions, {
      subject: 'issue',
      issueNumber: issue.number,
      commentId: null,
    }),
  };
}

export function commentJson(u: Urls, repo: SimRepo, c: SimComment) {
  const api = `${u.base}/repos/${repo.owner}/${repo.name}`;
  const isPull = repo.pulls.some((p) => p.number === c.issueNumber);
  return {
    id: c.id,
    node_id: c.nodeId,
    url: `${api}/issues/comments/${c.id}`,
    html_url: `${u.base}/${repo.owner}/${repo.name}/${isPull ? 'pull' : 'issues'}/${c.issueNumber}#issuecomment-${c.id}`,
    issue_url: `${api}/issues/${c.issueNumber}`,
    body: c.body,
    user: userJson(u, c.author),
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    author_association: association(repo, c.author),
    performed_via_github_app: null,
    reactions: reactionRollup(`${api}/issues/comments/${c.id}/reactions`, repo.reactions, {
      subject: 'issue_comment',
      issueNumber: c.issueNumber,
      commentId: c.id,
    }),
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
