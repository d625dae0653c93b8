import { anchorIn, firstHunk } from './github-sim-diff-position.js';
import { fileDiff, resolveCommit } from './github-sim-git-objects.js';
import { githubTime } from './github-sim-json.js';
import { pullJson, reviewCommentJson, reviewJson } from './github-sim-json-pulls.js';
import { nodeId, type SimPull, type SimRepo } from './github-sim-state.js';
import type { ReviewState, SimReview, SimReviewComment } from './github-sim-state-conversation.js';
import { bareOf, type SimWorld } from './github-sim-world.js';

// Reviews as GitHub takes them: an event (APPROVE, REQUEST_CHANGES, COMMENT; none leaves it
// pending) with a body and inline comments anchored in the PR's diff; a lone review comment or a
// reply is a review of its own, as on GitHub. A submitted review sends `pull_request_review`
// submitted, and each of its comments `pull_request_review_comment` created.

export interface CommentDraft {
  path: string;
  body: string;
  line?: number;
  side?: 'LEFT' | 'RIGHT';
  start_line?: number;
  start_side?: 'LEFT' | 'RIGHT';
  position?: number;
  subject_type?: 'line' | 'file';
}

type Placement = Pick<
  SimReviewComment,
  'path' | 'line' | 'side' | 'startLine' | 'startSide' | 'position' | 'subjectType' | 'diffHunk'
>;

/** Where a draft comment sits in the PR's diff at that commit, or GitHub's sentence why it cannot. */
async function place(
  world: SimWorld,
  repo: SimRepo,
  pr: SimPull,
  commitId: string,
  draft: CommentDraft,
): Promise<Placement | string> {
  const diff = await fileDiff(bareOf(world, repo), pr.baseSha, commitId, draft.path).catch(() => '');
  const hunk = firstHunk(diff);
  if (!hunk) return 'Path could not be resolved';
  const at = { path: draft.path, startLine: null, startSide: null };
  if (draft.subject_type === 'file') {
    return { ...at, line: null, side: 'RIGHT', position: null, subjectType: 'file', diffHunk: hunk };
  }
  if (draft.line === undefined && draft.position === undefined) return 'Line could not be resolved';
  const anchor = anchorIn(diff, { line: draft.line, side: draft.side, position: draft.position });
  if (!anchor) return 'Line could not be resolved';
  if (draft.start_line !== undefined) {
    const start = anchorIn(diff, { line: draft.start_line, side: draft.start_side ?? anchor.side });
    if (!start || draft.start_line >= anchor.line) return 'Start line could not be resolved';
    return { ...at, ...anchor, startLine: draft.start_line, startSide: start.side, subjectType: 'line' };
  }
  return { ...at, ...anchor, subjectType: 'line' };
}

const STATE_OF: Record<string, ReviewState> = {
  APPROVE: 'APPROVED',
  REQUEST_CHANGES: 'CHANGES_REQUESTED',
  COMMENT: 'COMMENTED',
};

export type ReviewOutcome =
  | { ok: true; review: SimReview; comments: SimReviewComment[] }
  | { ok: false; errors: string[] };

export async function createReview(
  world: SimWorld,
  repo: SimRepo,
  pr: SimPull,
  input: {
    author: string;
    body?: string;
    event?: 'APPROVE' | 'REQUEST_CHANGES' | 'COMMENT';
    commitId?: string;
    comments?: CommentDraft[];
    /** A reply: one comment in the thread of this one, at its place. */
    reply?: { to: SimReviewComment; body: string };
  },
): Promise<ReviewOutcome> {
  const own = input.author.toLowerCase() === pr.author.toLowerCase();
  if (own && input.event === 'APPROVE')
    return { ok: false, errors: ['Can not approve your own pull request'] };
  if (own && input.event === 'REQUEST_CHANGES') {
    return { ok: false, errors: ['Can not request changes on your own pull request'] };
  }
  const drafts = input.reply
    ? [{ path: input.reply.to.path, body: input.reply.body }]
    : (input.comments ?? []);
  if (!input.body && (input.event === 'REQUEST_CHANGES' || (input.event === 'COMMENT' && !drafts.length))) {
    return { ok: false, errors: [`Body is required when using ${input.event} events`] };
  }
  const commitId = input.reply
    ? input.reply.to.commitId
    : input.commitId
      ? await resolveCommit(bareOf(world, repo), input.commitId)
      : pr.headSha;
  if (!commitId) return { ok: false, errors: ['Commit not found'] };
  const placed: Placement[] = input.reply ? [placementOf(input.reply.to)] : [];
  for (const draft of input.reply ? [] : drafts) {
    const at = await place(world, repo, pr, commitId, draft);
    if (typeof at === 'string') return { ok: false, errors: [at] };
    placed.push(at);
  }
  const now = githubTime();
  const reviewId = world.store.nextId();
  const review: SimReview = {
    id: reviewId,
    nodeId: nodeId('PRR', reviewId),
    pullNumber: pr.number,
    author: input.author,
    body: input.body ?? '',
    state: input.event ? STATE_OF[input.event]! : 'PENDING',
    commitId,
    submittedAt: input.event ? now : null,
  };
  const comments = placed.map((at, i): SimReviewComment => {
    const id = world.store.nextId();
    return {
      id,
      nodeId: nodeId('PRRC', id),
      pullNumber: pr.number,
      reviewId,
      inReplyTo: input.reply ? (input.reply.to.inReplyTo ?? input.reply.to.id) : null,
      author: input.author,
      body: drafts[i]!.body,
      ...at,
      commitId,
      createdAt: now,
      updatedAt: now,
      resolvedBy: null,
    };
  });
  repo.reviews.push(review);
  repo.reviewComments.push(...comments);
  world.store.save();
  if (review.submittedAt) void emitSubmitted(world, repo, pr, review, comments);
  return { ok: true, review, comments };
}

/** A reply sits where its thread does, on the thread's commit, even when that is outdated. */
const placementOf = (c: SimReviewComment): Placement => ({
  path: c.path,
  line: c.line,
  side: c.side,
  startLine: c.startLine,
  startSide: c.startSide,
  position: c.position,
  subjectType: c.subjectType,
  diffHunk: c.diffHunk,
});

async function emitSubmitted(
  world: SimWorld,
  repo: SimRepo,
  pr: SimPull,
  review: SimReview,
  comments: SimReviewComment[],
) {
  const pull_request = pullJson(world.urls, repo, pr);
  // Webhooks spell a review's state in lower case, where the REST API uses upper case.
  const json = reviewJson(world.urls, repo, review);
  await world.hooks.emit({
    repo,
    event: 'pull_request_review',
    action: 'submitted',
    sender: review.author,
    fields: { review: { ...json, state: json.state.toLowerCase() }, pull_request },
  });
  for (const comment of comments) {
    await world.hooks.emit({
      repo,
      event: 'pull_request_review_comment',
      action: 'created',
      sender: comment.author,
      fields: { comment: reviewCommentJson(world.urls, repo, comment), pull_request },
    });
  }
}
