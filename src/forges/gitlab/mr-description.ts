import type { PrBodyTarget } from '../forge.js';
import type { GitLabClients } from './clients.js';
import { mapped } from './gitlab-errors.js';

// The job's merge request's description, rewritten as the job goes on: the PR body of GitHub. A PUT
// with the description it has changes nothing, and the reporter reads before it writes.

const mrPath = (clients: GitLabClients, job: PrBodyTarget) =>
  `${clients.project(job.repo)}/merge_requests/${job.pr}`;

export async function readMrDescription(clients: GitLabClients, job: PrBodyTarget): Promise<string> {
  const mr = await mapped(() => clients.api.get<{ description: string | null }>(mrPath(clients, job)));
  return mr.description ?? '';
}

export async function updateMrDescription(
  clients: GitLabClients,
  job: PrBodyTarget,
  description: string,
): Promise<void> {
  await mapped(() => clients.api.put(mrPath(clients, job), { description }));
}
