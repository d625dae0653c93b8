import type { JobContext } from '../../machines/job-context.js';
import type { GitHubClient } from './clients.js';
import { mapped } from './github-errors.js';

// Review threads a round's commit answered are resolved, as a person would resolve them after
// pushing the fix; threads it did not answer stay open for their writers. GraphQL is the only API
// GitHub gives for threads. Resolving a resolved thread is skipped, so a re-run resolves nothing twice.

const THREADS = `query ReviewThreads($owner: String!, $name: String!, $number: Int!, $after: String) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $after) {
        nodes { id isResolved comments(first: 100) { nodes { databaseId } } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
}`;

const RESOLVE = `mutation ResolveReviewThread($id: ID!) {
  resolveReviewThread(input: { threadId: $id }) { thread { id isResolved } }
}`;

interface ThreadPage {
  repository: {
    pullRequest: {
      reviewThreads: {
        nodes: { id: string; isResolved: boolean; comments: { nodes: { databaseId: number | null }[] } }[];
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
      };
    } | null;
  } | null;
}

/** Resolves the open threads holding any of these review comments; returns how many it resolved. */
export async function resolveThreads(
  gh: GitHubClient,
  job: Pick<JobContext, 'repo' | 'pr'>,
  commentIds: readonly number[],
): Promise<number> {
  if (!job.pr || commentIds.length === 0) return 0;
  const wanted = new Set(commentIds);
  const open: string[] = [];
  let after: string | null = null;
  do {
    const page: ThreadPage = await mapped(() =>
      gh.graphql<ThreadPage>(THREADS, {
        owner: job.repo.owner,
        name: job.repo.name,
        number: job.pr!.number,
        after,
      }),
    );
    const threads = page.repository?.pullRequest?.reviewThreads;
    if (!threads) break;
    for (const t of threads.nodes)
      if (!t.isResolved && t.comments.nodes.some((c) => c.databaseId !== null && wanted.has(c.databaseId)))
        open.push(t.id);
    after = threads.pageInfo.hasNextPage ? threads.pageInfo.endCursor : null;
  } while (after);
  for (const id of open) await mapped(() => gh.graphql(RESOLVE, { id }));
  return open.length;
}
