import type { PrBodyTarget } from '../forge.js';
import type { GitLabClients } from './clients.js';
import { mapped } from './gitlab-errors.js';

// The job's merge request's description, rewritten as the job goes on: the PR body of GitHub. An
// edit with the description it has changes nothing, and the reporter reads before it writes.

export async function readMrDescription(clients: GitLabClients, job: PrBodyTarget): Promise<string> {
  const mr = (await mapped(() =>
    clients.call((gl) => gl.MergeRequests.show(clients.project(job.repo), job.pr)),
  )) as { description?: string | null };
  return mr.description ?? '';
}

export async function updateMrDescription(
  clients: GitLabClients,
  job: PrBodyTarget,
  description: string,
): Promise<void> {
  await mapped(() =>
    clients.call((gl) => gl.MergeRequests.edit(clients.project(job.repo), job.pr, { description })),
  );
}
