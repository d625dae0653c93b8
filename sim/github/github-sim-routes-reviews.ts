import { reviewCommentJson, reviewJson } from './github-sim-json-pulls.js';
import type { OperationId } from './github-sim-operations.js';
import { refreshPull } from './github-sim-pull-lifecycle.js';
import { createReview } from './github-sim-reviews.js';
import {
  type Handler,
  notFound,
  paged,
  pullOf,
  type Reply,
  type RouteContext,
  repoOf,
  unprocessable,
  validationFailed,
} from './github-sim-route-kit.js';
import type { SimRepo } from './github-sim-state.js';
import type { SimReviewComment } from './github-sim-state-conversation.js';

// Reviews and review comments over REST. A pending review, and its comments, are seen only by
// their author, as on GitHub.

const visibleTo = (repo: SimRepo, login: string) => (reviewId: number) => {
  const review = repo.reviews.find((r) => r.id === reviewId);
  return !!review && (review.state !== 'PENDING' || review.author === login);
};

function commentCreated(ctx: RouteContext, repo: SimRepo, comment: SimReviewComment): Reply {
  return {
    status: 201,
    body: reviewCommentJson(ctx.urls, repo, comment),
    headers: { location: `${ctx.urls.base}/repos/${repo.owner}/${repo.name}/pulls/comments/${comment.id}` },
  };
}

const commentRefused = (ctx: RouteContext, errors: string[]) =>
  validationFailed(
    ctx,
    errors.map((m) => ({ resource: 'PullRequestReviewComment', code: 'custom', message: m })),
  );

export const reviewHandlers = {
  'pulls/create-review': async (ctx) => {
    const found = pullOf(ctx);
    if (!found) return notFound(ctx);
    await refreshPull(ctx.world, found.repo, found.pr);
    const outcome = await createReview(ctx.world, found.repo, found.pr, {
      author: ctx.login,
      body: ctx.body?.body,
      event: ctx.body?.event,
      commitId: ctx.body?.commit_id,
      comments: ctx.body?.comments,
    });
    if (!outcome.ok) return unprocessable(ctx, outcome.errors);
    return { status: 200, body: reviewJson(ctx.urls, found.repo, outcome.review) };
  },

  'pulls/list-reviews': (ctx) => {
    const found = pullOf(ctx);
    if (!found) return notFound(ctx);
    const seen = visibleTo(found.repo, ctx.login);
    const reviews = found.repo.reviews.filter((r) => r.pullNumber === found.pr.number && seen(r.id));
    return paged(
      ctx,
      reviews.map((r) => reviewJson(ctx.urls, found.repo, r)),
    );
  },

  'pulls/get-review': (ctx) => {
    const found = pullOf(ctx);
    const review = found?.repo.reviews.find(
      (r) => r.id === ctx.path.review_id && r.pullNumber === found.pr.number,
    );
    if (!found || !review || !visibleTo(found.repo, ctx.login)(review.id)) return notFound(ctx);
    return { status: 200, body: reviewJson(ctx.urls, found.repo, review) };
  },

  'pulls/list-comments-for-review': (ctx) => {
    const found = pullOf(ctx);
    const review = found?.repo.reviews.find(
      (r) => r.id === ctx.path.review_id && r.pullNumber === found.pr.number,
    );
    if (!found || !review || !visibleTo(found.repo, ctx.login)(review.id)) return notFound(ctx);
    const comments = found.repo.reviewComments.filter((c) => c.reviewId === review.id);
    return paged(
      ctx,
      comments.map((c) => reviewCommentJson(ctx.urls, found.repo, c)),
    );
  },

  'pulls/list-review-comments': (ctx) => {
    const found = pullOf(ctx);
    if (!found) return notFound(ctx);
    const seen = visibleTo(found.repo, ctx.login);
    const since = ctx.query.since ? Date.parse(ctx.query.since) : null;
    const key = ctx.query.sort === 'updated' ? 'updatedAt' : 'createdAt';
    const comments = found.repo.reviewComments
      .filter((c) => c.pullNumber === found.pr.number && seen(c.reviewId))
      .filter((c) => since === null || Date.parse(c.updatedAt) >= since)
      .sort((a, b) => a[key].localeCompare(b[key]) || a.id - b.id);
    if (ctx.query.sort && ctx.query.direction === 'desc') comments.reverse();
    return paged(
      ctx,
      comments.map((c) => reviewCommentJson(ctx.urls, found.repo, c)),
    );
  },

  'pulls/get-review-comment': (ctx) => {
    const repo = repoOf(ctx);
    const comment = repo?.reviewComments.find((c) => c.id === ctx.path.comment_id);
    if (!repo || !comment || !visibleTo(repo, ctx.login)(comment.reviewId)) return notFound(ctx);
    return { status: 200, body: reviewCommentJson(ctx.urls, repo, comment) };
  },

  'pulls/create-review-comment': async (ctx) => {
    const found = pullOf(ctx);
    if (!found) return notFound(ctx);
    const { repo, pr } = found;
    const body = ctx.body;
    if (body.in_reply_to !== undefined) {
      const to = repo.reviewComments.find((c) => c.id === body.in_reply_to && c.pullNumber === pr.number);
      if (!to) return notFound(ctx);
      const outcome = await createReview(ctx.world, repo, pr, {
        author: ctx.login,
        event: 'COMMENT',
        reply: { to, body: body.body },
      });
      return outcome.ok
        ? commentCreated(ctx, repo, outcome.comments[0]!)
        : commentRefused(ctx, outcome.errors);
    }
    await refreshPull(ctx.world, repo, pr);
    const outcome = await createReview(ctx.world, repo, pr, {
      author: ctx.login,
      event: 'COMMENT',
      commitId: body.commit_id,
      comments: [
        {
          path: body.path,
          body: body.body,
          line: body.line,
          side: body.side,
          start_line: body.start_line,
          start_side: body.start_side,
          position: body.position,
          subject_type: body.subject_type,
        },
      ],
    });
    return outcome.ok ? commentCreated(ctx, repo, outcome.comments[0]!) : commentRefused(ctx, outcome.errors);
  },

  'pulls/create-reply-for-review-comment': async (ctx) => {
    const found = pullOf(ctx);
    const to = found?.repo.reviewComments.find(
      (c) => c.id === ctx.path.comment_id && c.pullNumber === found.pr.number,
    );
    if (!found || !to) return notFound(ctx);
    const outcome = await createReview(ctx.world, found.repo, found.pr, {
      author: ctx.login,
      event: 'COMMENT',
      reply: { to, body: ctx.body.body },
    });
    return outcome.ok
      ? commentCreated(ctx, found.repo, outcome.comments[0]!)
      : commentRefused(ctx, outcome.errors);
  },
} satisfies Partial<Record<OperationId, Handler>>;
