import { type Caller, callerLogin, mayAccess } from './github-sim-auth.js';
import { type RootResolvers, SimGraphQLError } from './github-sim-graphql.js';
import type { Urls } from './github-sim-json.js';
import { setDraft } from './github-sim-pull-lifecycle.js';
import { resolveReviewThread, reviewThreads } from './github-sim-review-threads.js';
import type { SimPull, SimRepo } from './github-sim-state.js';
import type { SimWorld } from './github-sim-world.js';

// The GraphQL root fields the simulator answers: `node` for a pull request, and the two mutations
// that move a PR between draft and ready for review, each with its `pull_request` webhook. Objects
// carry __typename so GraphQL resolves interfaces the way GitHub does.

function prNode(urls: Urls, repo: SimRepo, pr: SimPull) {
  return {
    __typename: 'PullRequest',
    id: pr.nodeId,
    number: pr.number,
    title: pr.title,
    body: pr.body,
    isDraft: pr.draft,
    state: pr.mergedAt ? 'MERGED' : pr.state === 'open' ? 'OPEN' : 'CLOSED',
    closed: pr.state === 'closed',
    merged: pr.mergedAt !== null,
    url: `${urls.base}/${repo.owner}/${repo.name}/pull/${pr.number}`,
    headRefName: pr.head,
    baseRefName: pr.base,
    headRefOid: pr.headSha,
  };
}

type DraftInput = { input: { pullRequestId: string; clientMutationId?: string } };

export function graphqlRoots(world: SimWorld, caller: Caller): RootResolvers {
  const { store, urls } = world;
  const find = (id: string) => {
    for (const repo of Object.values(store.state.repos)) {
      const pr = repo.pulls.find((p) => p.nodeId === id);
      if (pr && mayAccess(store.state, caller, repo.owner)) return { repo, pr };
    }
    throw new SimGraphQLError(`Could not resolve to a node with the global id of '${id}'`, 'NOT_FOUND');
  };
  const draftMutation =
    (draft: boolean) =>
    ({ input }: DraftInput) => {
      const { repo, pr } = find(input.pullRequestId);
      if (pr.state === 'closed') throw new SimGraphQLError('Pull request is closed', 'UNPROCESSABLE');
      // The webhook goes out after the answer, as GitHub's do.
      void setDraft(world, repo, pr, draft, callerLogin(store.state, caller) ?? 'ghost');
      return { clientMutationId: input.clientMutationId ?? null, pullRequest: prNode(urls, repo, pr) };
    };
  return {
    query: {
      node: ({ id }: { id: string }) => {
        const { repo, pr } = find(id);
        return prNode(urls, repo, pr);
      },
      repository: ({ owner, name }: { owner: string; name: string }) => {
        const repo = Object.values(store.state.repos).find(
          (r) => r.owner.toLowerCase() === owner.toLowerCase() && r.name.toLowerCase() === name.toLowerCase(),
        );
        if (!repo || !mayAccess(store.state, caller, repo.owner))
          throw new SimGraphQLError(
            `Could not resolve to a Repository with the name '${owner}/${name}'.`,
            'NOT_FOUND',
          );
        return {
          __typename: 'Repository',
          nameWithOwner: `${repo.owner}/${repo.name}`,
          pullRequest: ({ number }: { number: number }) => {
            const pr = repo.pulls.find((p) => p.number === number);
            return pr ? { ...prNode(urls, repo, pr), reviewThreads: () => reviewThreads(repo, pr) } : null;
          },
        };
      },
    },
    mutation: {
      markPullRequestReadyForReview: draftMutation(false),
      convertPullRequestToDraft: draftMutation(true),
      resolveReviewThread: resolveReviewThread(world, callerLogin(store.state, caller) ?? 'ghost', (repo) =>
        mayAccess(store.state, caller, repo.owner),
      ),
    },
  };
}
