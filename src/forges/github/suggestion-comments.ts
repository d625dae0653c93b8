import type { JobContext } from '../../machines/job-context.js';
import type { SuggestionComment } from '../forge.js';
import { isBootysOwn } from '../markers.js';
import { hasSuggestion } from '../suggestion-blocks.js';
import type { CiDeps } from './ci-read.js';
import { mapped } from './github-errors.js';

// The pull request's review comments that hold a ```suggestion block, as GitHub's REST API has
// them: path, the line range at `commit_id` (`line` is null once the comment is outdated) and the
// side of the diff. booty's own comments are never a writer's suggestion.

export function suggestionComments(deps: CiDeps) {
  return async (job: JobContext): Promise<SuggestionComment[]> => {
    if (!job.pr) return [];
    const gh = await deps.clients.forJob(job);
    const listed = await mapped(() =>
      gh.rest.paginate(gh.rest.pulls.listReviewComments, {
        owner: job.repo.owner,
        repo: job.repo.name,
        pull_number: job.pr!.number,
        per_page: 100,
      }),
    );
    return listed
      .filter((c) => hasSuggestion(c.body) && !isBootysOwn(c.body))
      .map((c) => ({
        id: c.id,
        author: c.user?.login ?? 'ghost',
        body: c.body,
        path: c.path,
        line: c.line ?? null,
        startLine: c.start_line ?? null,
        side: c.side === 'LEFT' ? ('LEFT' as const) : ('RIGHT' as const),
        commitId: c.commit_id,
      }))
      .sort((a, b) => a.id - b.id);
  };
}
