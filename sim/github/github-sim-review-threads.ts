import { SimGraphQLError } from './github-sim-graphql.js';
import { nodeId, type SimPull, type SimRepo } from './github-sim-state.js';
import type { SimReviewComment } from './github-sim-state-conversation.js';
import type { SimWorld } from './github-sim-world.js';

// Review threads as GitHub's GraphQL schema has them: a pull request's `reviewThreads`, each its
// first comment and the replies to it, resolved or not; and `resolveReviewThread`. The thread's
// state lives on its first comment. Connections answer one page: the simulator's threads are few.

const threadId = (root: SimReviewComment) => nodeId('PRRT', root.id);

function threadNode(repo: SimRepo, root: SimReviewComment) {
  const comments = repo.reviewComments.filter((c) => c.id === root.id || c.inReplyTo === root.id);
  const page = <T>(nodes: T[]) => ({
    nodes,
    totalCount: nodes.length,
    pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
  });
  return {
    __typename: 'PullRequestReviewThread',
    id: threadId(root),
    isResolved: root.resolvedBy !== null,
    isOutdated: root.line === null,
    isCollapsed: root.resolvedBy !== null,
    path: root.path,
    line: root.line,
    startLine: root.startLine,
    diffSide: root.side,
    resolvedBy: root.resolvedBy === null ? null : { __typename: 'User', login: root.resolvedBy },
    comments: () =>
      page(
        comments.map((c) => ({
          __typename: 'PullRequestReviewComment',
          id: c.nodeId,
          databaseId: c.id,
          body: c.body,
          path: c.path,
          author: { __typename: 'User', login: c.author },
        })),
      ),
  };
}

/** `pullRequest.reviewThreads`: the threads of the pull request's review comments, oldest first. */
export function reviewThreads(repo: SimRepo, pr: SimPull) {
  const roots = repo.reviewComments.filter((c) => c.pullNumber === pr.number && c.inReplyTo === null);
  const nodes = roots.map((r) => threadNode(repo, r));
  return {
    nodes,
    totalCount: nodes.length,
    pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
  };
}

type ResolveInput = { input: { threadId: string; clientMutationId?: string } };

/** `resolveReviewThread`: the thread marked resolved by the caller. */
export function resolveReviewThread(world: SimWorld, login: string, reachable: (repo: SimRepo) => boolean) {
  return ({ input }: ResolveInput) => {
    for (const repo of Object.values(world.store.state.repos)) {
      const root = repo.reviewComments.find((c) => c.inReplyTo === null && threadId(c) === input.threadId);
      if (!root || !reachable(repo)) continue;
      root.resolvedBy ??= login;
      world.store.save();
      return { clientMutationId: input.clientMutationId ?? null, thread: threadNode(repo, root) };
    }
    throw new SimGraphQLError(
      `Could not resolve to a node with the global id of '${input.threadId}'`,
      'NOT_FOUND',
    );
  };
}
