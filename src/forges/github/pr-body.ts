import type { PrBodyTarget } from '../forge.js';
import type { GitHubClient } from './clients.js';
import { mapped } from './github-errors.js';

// The body of the job's pull request, rewritten as the job goes on. Both calls are safe to repeat:
// a PATCH with the body the PR already has changes nothing, and the reporter reads before it writes.

const at = (job: PrBodyTarget) => ({ owner: job.repo.owner, repo: job.repo.name, pull_number: job.pr });

export async function readPrBody(gh: GitHubClient, job: PrBodyTarget): Promise<string> {
  const { data } = await mapped(() => gh.rest.pulls.get(at(job)));
  return data.body ?? '';
}

export async function updatePrBody(gh: GitHubClient, job: PrBodyTarget, body: string): Promise<void> {
  await mapped(() => gh.rest.pulls.update({ ...at(job), body }));
}
