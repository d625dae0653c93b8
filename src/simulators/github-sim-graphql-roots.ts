import { type Caller, mayAccess } from './github-sim-auth.js';
import { type RootResolvers, SimGraphQLError } from './github-sim-graphql.js';
import { githubTime, type Urls } from './github-sim-json.js';
import type { SimPull, SimRepo, SimStore } from './github-sim-state.js';

// The GraphQL root fields the simulator answers: `node` for a pull request, and the mutation booty
// promotes with. Objects carry __typename so GraphQL resolves interfaces the way GitHub does.

function prNode(urls: Urls, repo: SimRepo, pr: SimPull) {
  return {
    __typename: 'PullRequest',
    id: pr.nodeId,
    number: pr.number,
    title: pr.title,
    body: pr.body,
    isDraft: pr.draft,
    state: pr.state === 'open' ? 'OPEN' : 'CLOSED',
    closed: pr.state === 'closed',
    url: `${urls.base}/${repo.owner}/${repo.name}/pull/${pr.number}`,
    headRefName: pr.head,
    baseRefName: pr.base,
    headRefOid: pr.headSha,
  };
}

export function graphqlRoots(store: SimStore, urls: Urls, caller: Caller): RootResolvers {
  const find = (id: string) => {
    for (const repo of Object.values(store.state.repos)) {
      const pr = repo.pulls.find((p) => p.nodeId === id);
      if (pr && mayAccess(store.state, caller, repo.owner)) return { repo, pr };
    }
    throw new SimGraphQLError(`Could not resolve to a node with the global id of '${id}'`, 'NOT_FOUND');
  };
  return {
    query: {
      node: ({ id }: { id: string }) => {
        const { repo, pr } = find(id);
        return prNode(urls, repo, pr);
      },
    },
    mutation: {
      markPullRequestReadyForReview: ({
        input,
      }: {
        input: { pullRequestId: string; clientMutationId?: string };
      }) => {
        const { repo, pr } = find(input.pullRequestId);
        if (pr.state === 'closed') throw new SimGraphQLError('Pull request is closed', 'UNPROCESSABLE');
        pr.draft = false;
        pr.updatedAt = githubTime();
        store.save();
        return { clientMutationId: input.clientMutationId ?? null, pullRequest: prNode(urls, repo, pr) };
      },
    },
  };
}
