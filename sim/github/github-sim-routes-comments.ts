import { commentJson, githubTime, issueJson, reactionJson } from './github-sim-json.js';
import { pullAsIssueJson } from './github-sim-json-pulls.js';
import type { OperationId } from './github-sim-operations.js';
import {
  type Handler,
  notFound,
  paged,
  type Reply,
  type RouteContext,
  repoOf,
} from './github-sim-route-kit.js';
import { nodeId, type SimComment, type SimReaction, type SimRepo } from './github-sim-state.js';
import type { SimWorld } from './github-sim-world.js';

// Issue comments (a PR's conversation is its issue's: PRs are issues) with their `issue_comment`
// webhooks, and reactions on issues, issue comments and review comments. A repeated reaction is
// answered with the one already there, 200 instead of 201, as GitHub does.

/** The issue or PR with this number, as the issues API shows it. */
function issueLike(ctx: RouteContext, repo: SimRepo, number: number) {
  const issue = repo.issues.find((i) => i.number === number);
  if (issue) return issueJson(ctx.urls, repo, issue);
  const pr = repo.pulls.find((p) => p.number === number);
  return pr ? pullAsIssueJson(ctx.urls, repo, pr) : null;
}

export function emitIssueComment(
  world: SimWorld,
  repo: SimRepo,
  comment: SimComment,
  action: 'created' | 'edited',
  sender: string,
  changes?: Record<string, unknown>,
) {
  const issue = repo.issues.find((i) => i.number === comment.issueNumber);
  const pr = repo.pulls.find((p) => p.number === comment.issueNumber);
  return world.hooks.emit({
    repo,
    event: 'issue_comment',
    action,
    sender,
    fields: {
      ...(changes ? { changes } : {}),
      issue: issue ? issueJson(world.urls, repo, issue) : pullAsIssueJson(world.urls, repo, pr!),
      comment: commentJson(world.urls, repo, comment),
    },
  });
}

function react(
  ctx: RouteContext,
  repo: SimRepo,
  on: Omit<SimReaction, 'id' | 'content' | 'author' | 'createdAt'>,
): Reply {
  const existing = repo.reactions.find(
    (r) =>
      r.subject === on.subject &&
      r.issueNumber === on.issueNumber &&
      r.commentId === on.commentId &&
      r.content === ctx.body.content &&
      r.author === ctx.login,
  );
  if (existing) return { status: 200, body: reactionJson(ctx.urls, existing) };
  const reaction: SimReaction = {
    id: ctx.store.nextId(),
    ...on,
    content: ctx.body.content,
    author: ctx.login,
    createdAt: githubTime(ctx.now),
  };
  repo.reactions.push(reaction);
  ctx.store.save();
  return { status: 201, body: reactionJson(ctx.urls, reaction) };
}

function reactionsOn(ctx: RouteContext, repo: SimRepo, subject: SimReaction['subject'], commentId: number) {
  const mine = repo.reactions.filter(
    (r) =>
      r.subject === subject &&
      r.commentId === commentId &&
      (!ctx.query.content || r.content === ctx.query.content),
  );
  return paged(
    ctx,
    mine.map((r) => reactionJson(ctx.urls, r)),
  );
}

export const commentHandlers = {
  'issues/list-comments': (ctx) => {
    const repo = repoOf(ctx);
    if (!repo || !issueLike(ctx, repo, ctx.path.issue_number)) return notFound(ctx);
    const comments = repo.comments.filter((c) => c.issueNumber === ctx.path.issue_number);
    return paged(
      ctx,
      comments.map((c) => commentJson(ctx.urls, repo, c)),
    );
  },

  'issues/get-comment': (ctx) => {
    const repo = repoOf(ctx);
    const comment = repo?.comments.find((c) => c.id === ctx.path.comment_id);
    return repo && comment ? { status: 200, body: commentJson(ctx.urls, repo, comment) } : notFound(ctx);
  },

  'issues/create-comment': (ctx) => {
    const repo = repoOf(ctx);
    if (!repo || !issueLike(ctx, repo, ctx.path.issue_number)) return notFound(ctx);
    const id = ctx.store.nextId();
    const comment: SimComment = {
      id,
      nodeId: nodeId('IC', id),
      issueNumber: ctx.path.issue_number,
      body: ctx.body.body,
      author: ctx.login,
      createdAt: githubTime(ctx.now),
      updatedAt: githubTime(ctx.now),
    };
    repo.comments.push(comment);
    ctx.store.save();
    void emitIssueComment(ctx.world, repo, comment, 'created', ctx.login);
    return {
      status: 201,
      body: commentJson(ctx.urls, repo, comment),
      headers: { location: `${ctx.urls.base}/repos/${repo.owner}/${repo.name}/issues/comments/${id}` },
    };
  },

  'issues/update-comment': (ctx) => {
    const repo = repoOf(ctx);
    const comment = repo?.comments.find((c) => c.id === ctx.path.comment_id);
    if (!repo || !comment) return notFound(ctx);
    const from = comment.body;
    comment.body = ctx.body.body;
    comment.updatedAt = githubTime(ctx.now);
    ctx.store.save();
    if (from !== comment.body) {
      void emitIssueComment(ctx.world, repo, comment, 'edited', ctx.login, { body: { from } });
    }
    return { status: 200, body: commentJson(ctx.urls, repo, comment) };
  },

  'reactions/create-for-issue': (ctx) => {
    const repo = repoOf(ctx);
    if (!repo || !issueLike(ctx, repo, ctx.path.issue_number)) return notFound(ctx);
    return react(ctx, repo, { subject: 'issue', issueNumber: ctx.path.issue_number, commentId: null });
  },

  'reactions/create-for-issue-comment': (ctx) => {
    const repo = repoOf(ctx);
    const comment = repo?.comments.find((c) => c.id === ctx.path.comment_id);
    if (!repo || !comment) return notFound(ctx);
    return react(ctx, repo, {
      subject: 'issue_comment',
      issueNumber: comment.issueNumber,
      commentId: comment.id,
    });
  },

  'reactions/list-for-issue-comment': (ctx) => {
    const repo = repoOf(ctx);
    const comment = repo?.comments.find((c) => c.id === ctx.path.comment_id);
    return repo && comment ? reactionsOn(ctx, repo, 'issue_comment', comment.id) : notFound(ctx);
  },

  'reactions/create-for-pull-request-review-comment': (ctx) => {
    const repo = repoOf(ctx);
    const comment = repo?.reviewComments.find((c) => c.id === ctx.path.comment_id);
    if (!repo || !comment) return notFound(ctx);
    return react(ctx, repo, {
      subject: 'pull_request_review_comment',
      issueNumber: comment.pullNumber,
      commentId: comment.id,
    });
  },

  'reactions/list-for-pull-request-review-comment': (ctx) => {
    const repo = repoOf(ctx);
    const comment = repo?.reviewComments.find((c) => c.id === ctx.path.comment_id);
    return repo && comment
      ? reactionsOn(ctx, repo, 'pull_request_review_comment', comment.id)
      : notFound(ctx);
  },
} satisfies Partial<Record<OperationId, Handler>>;
