import {
  association,
  type labelJson,
  reactionRollup,
  repoJson,
  teamJson,
  type Urls,
  userJson,
} from './github-sim-json.js';
import type { SimPull, SimRepo } from './github-sim-state.js';
import type { SimReview, SimReviewComment } from './github-sim-state-conversation.js';

// How GitHub's REST API spells a pull request and its conversation: the PR, the PR as an issue
// (PRs are issues), its reviews and its review comments.

const apiOf = (u: Urls, repo: SimRepo) => `${u.base}/repos/${repo.owner}/${repo.name}`;
const webOf = (u: Urls, repo: SimRepo) => `${u.base}/${repo.owner}/${repo.name}`;

export function pullJson(u: Urls, repo: SimRepo, pr: SimPull) {
  const api = apiOf(u, repo);
  const html = `${webOf(u, repo)}/pull/${pr.number}`;
  const ref = (name: string, sha: string) => ({
    label: `${repo.owner}:${name}`,
    ref: name,
    sha,
    user: userJson(u, repo.owner),
    repo: repoJson(u, repo),
  });
  const link = (href: string) => ({ href });
  const merged = pr.mergedAt !== null;
  return {
    url: `${api}/pulls/${pr.number}`,
    id: pr.id,
    node_id: pr.nodeId,
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: `${api}/issues/${pr.number}`,
    commits_url: `${api}/pulls/${pr.number}/commits`,
    review_comments_url: `${api}/pulls/${pr.number}/comments`,
    review_comment_url: `${api}/pulls/comments{/number}`,
    comments_url: `${api}/issues/${pr.number}/comments`,
    statuses_url: `${api}/statuses/${pr.headSha}`,
    number: pr.number,
    state: pr.state,
    locked: false,
    title: pr.title,
    user: userJson(u, pr.author),
    body: pr.body,
    labels: [] as ReturnType<typeof labelJson>[],
    milestone: null,
    active_lock_reason: null,
    draft: pr.draft,
    created_at: pr.createdAt,
    updated_at: pr.updatedAt,
    closed_at: pr.closedAt,
    merged_at: pr.mergedAt,
    merge_commit_sha: pr.mergeCommitSha,
    assignee: null,
    assignees: [],
    requested_reviewers: pr.requestedReviewers.map((login) => userJson(u, login)),
    requested_teams: pr.requestedTeams.map((slug) => teamJson(u, repo.owner, slug)),
    head: pr.headRepo ? forkRef(u, repo, pr.headRepo, pr.head, pr.headSha) : ref(pr.head, pr.headSha),
    base: ref(pr.base, pr.baseSha),
    _links: {
      self: link(`${api}/pulls/${pr.number}`),
      html: link(html),
      issue: link(`${api}/issues/${pr.number}`),
      comments: link(`${api}/issues/${pr.number}/comments`),
      review_comments: link(`${api}/pulls/${pr.number}/comments`),
      review_comment: link(`${api}/pulls/comments{/number}`),
      commits: link(`${api}/pulls/${pr.number}/commits`),
      statuses: link(`${api}/statuses/${pr.headSha}`),
    },
    author_association: association(repo, pr.author),
    auto_merge: null,
    merged,
    mergeable: pr.state === 'open' ? true : null,
    rebaseable: pr.state === 'open' ? true : null,
    mergeable_state: pr.state === 'open' ? (pr.draft ? 'draft' : 'clean') : 'unknown',
    merged_by: pr.mergedBy ? userJson(u, pr.mergedBy) : null,
    comments: repo.comments.filter((c) => c.issueNumber === pr.number).length,
    review_comments: repo.reviewComments.filter((c) => c.pullNumber === pr.number).length,
    maintainer_can_modify: pr.headRepo !== null && pr.maintainerCanModify,
    commits: pr.stats.commits,
    additions: pr.stats.additions,
    deletions: pr.stats.deletions,
    changed_files: pr.stats.changedFiles,
  };
}

/** A PR through the issues API: an issue with a `pull_request` field, as GitHub answers. */
export function pullAsIssueJson(u: Urls, repo: SimRepo, pr: SimPull) {
  const api = apiOf(u, repo);
  const url = `${api}/issues/${pr.number}`;
  const html = `${webOf(u, repo)}/pull/${pr.number}`;
  return {
    url,
    repository_url: api,
    labels_url: `${url}/labels{/name}`,
    comments_url: `${url}/comments`,
    events_url: `${url}/events`,
    html_url: html,
    id: pr.id,
    node_id: pr.nodeId,
    number: pr.number,
    title: pr.title,
    body: pr.body,
    user: userJson(u, pr.author),
    labels: [],
    state: pr.state,
    state_reason: null,
    locked: false,
    assignee: null,
    assignees: [],
    milestone: null,
    comments: repo.comments.filter((c) => c.issueNumber === pr.number).length,
    created_at: pr.createdAt,
    updated_at: pr.updatedAt,
    closed_at: pr.closedAt,
    draft: pr.draft,
    author_association: association(repo, pr.author),
    pull_request: {
      url: `${api}/pulls/${pr.number}`,
      html_url: html,
      diff_url: `${html}.diff`,
      patch_url: `${html}.patch`,
      merged_at: pr.mergedAt,
    },
    reactions: reactionRollup(`${url}/reactions`, repo.reactions, {
      subject: 'issue',
      issueNumber: pr.number,
      commentId: null,
    }),
  };
}

/** A PR as a check run or workflow run names it. */
export function pullMinimalJson(u: Urls, repo: SimRepo, pr: SimPull) {
  const api = apiOf(u, repo);
  const side = (ref: string, sha: string) => ({ ref, sha, repo: { id: repo.id, url: api, name: repo.name } });
  return {
    id: pr.id,
    number: pr.number,
    url: `${api}/pulls/${pr.number}`,
    head: side(pr.head, pr.headSha),
    base: side(pr.base, pr.baseSha),
  };
}

export function reviewJson(u: Urls, repo: SimRepo, review: SimReview) {
  const api = apiOf(u, repo);
  const html = `${webOf(u, repo)}/pull/${review.pullNumber}#pullrequestreview-${review.id}`;
  return {
    id: review.id,
    node_id: review.nodeId,
    user: userJson(u, review.author),
    body: review.body,
    state: review.state,
    html_url: html,
    pull_request_url: `${api}/pulls/${review.pullNumber}`,
    author_association: association(repo, review.author),
    _links: { html: { href: html }, pull_request: { href: `${api}/pulls/${review.pullNumber}` } },
    ...(review.submittedAt ? { submitted_at: review.submittedAt } : {}),
    commit_id: review.commitId,
  };
}

export function reviewCommentJson(u: Urls, repo: SimRepo, c: SimReviewComment) {
  const api = apiOf(u, repo);
  const html = `${webOf(u, repo)}/pull/${c.pullNumber}#discussion_r${c.id}`;
  return {
    url: `${api}/pulls/comments/${c.id}`,
    pull_request_review_id: c.reviewId,
    id: c.id,
    node_id: c.nodeId,
    diff_hunk: c.diffHunk,
    path: c.path,
    position: c.position,
    original_position: c.position,
    commit_id: c.commitId,
    original_commit_id: c.commitId,
    ...(c.inReplyTo !== null ? { in_reply_to_id: c.inReplyTo } : {}),
    user: userJson(u, c.author),
    body: c.body,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    html_url: html,
    pull_request_url: `${api}/pulls/${c.pullNumber}`,
    author_association: association(repo, c.author),
    _links: {
      self: { href: `${api}/pulls/comments/${c.id}` },
      html: { href: html },
      pull_request: { href: `${api}/pulls/${c.pullNumber}` },
    },
    start_line: c.startLine,
    original_start_line: c.startLine,
    start_side: c.startSide,
    line: c.line,
    original_line: c.line,
    side: c.side,
    subject_type: c.subjectType,
    reactions: reactionRollup(`${api}/pulls/comments/${c.id}/reactions`, repo.reactions, {
      subject: 'pull_request_review_comment',
      issueNumber: c.pullNumber,
      commentId: c.id,
    }),
  };
}

/** A head in a fork: the fork as its owner's repository, a copy of the base's (github-sim-forks.ts). */
function forkRef(u: Urls, base: SimRepo, fullName: string, ref: string, sha: string) {
  const [owner, name] = fullName.split('/') as [string, string];
  const fork: SimRepo = { ...base, id: base.id + 1_000_000, owner, name, issues: [] };
  return {
    label: `${owner}:${ref}`,
    ref,
    sha,
    user: userJson(u, owner),
    repo: { ...repoJson(u, fork), fork: true, full_name: fullName },
  };
}
