import { BootyError } from '../../errors.js';
import type { ProgressComments, ProgressTarget } from '../forge.js';
import { progressMarker } from '../markers.js';
import type { GitLabClients } from './clients.js';
import { gitlabError, httpStatus } from './gitlab-errors.js';
import { readMrDescription, updateMrDescription } from './mr-description.js';
import { awardOnce, findMarked, notesPath } from './notes.js';

// The one progress note per job on the issue, found again by its hidden marker and edited in
// place, and 👀 (`eyes`) as an award emoji on the issue. Both are safe to repeat.

export function gitlabProgress(clients: GitLabClients): ProgressComments {
  const issue = (job: ProgressTarget) => ({ kind: 'issues' as const, iid: job.issue.number });
  async function write(
    job: ProgressTarget,
    body: string,
    known: { id: number; body: string } | null,
  ): Promise<{ id: number; body: string }> {
    const found = known ?? (await findMarked(clients, job.repo, issue(job), progressMarker(job.jobId)));
    const existing = found && { id: found.id, body: found.body };
    const path = notesPath(clients, job.repo, issue(job));
    if (existing) {
      if (existing.body === body) return existing;
      try {
        await clients.api.put(`${path}/${existing.id}`, { body });
        return { id: existing.id, body };
      } catch (err) {
        // Someone deleted the note: write a new one rather than fail forever.
        if (httpStatus(err) !== 404 || !known) throw gitlabError(err);
        return write(job, body, null);
      }
    }
    try {
      const note = await clients.api.post<{ id: number }>(path, { body });
      return { id: note.id, body };
    } catch (err) {
      const mappedErr = gitlabError(err);
      if (mappedErr instanceof BootyError && mappedErr.retryable) {
        const again = await findMarked(clients, job.repo, issue(job), progressMarker(job.jobId));
        if (again) return write(job, body, { id: again.id, body: again.body });
      }
      throw mappedErr;
    }
  }
  return {
    acknowledge: (job) =>
      awardOnce(clients, `${clients.project(job.repo)}/issues/${job.issue.number}`, 'eyes'),
    write,
    readPrBody: (job) => readMrDescription(clients, job),
    updatePrBody: (job, body) => updateMrDescription(clients, job, body),
  };
}
