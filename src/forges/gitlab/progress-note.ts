import { BootyError } from '../../errors.js';
import type { ProgressComments, ProgressTarget } from '../forge.js';
import { progressMarker } from '../markers.js';
import type { GitLabClients } from './clients.js';
import { gitlabError, httpStatus } from './gitlab-errors.js';
import { readMrDescription, updateMrDescription } from './mr-description.js';
import { awardOnce, createNote, editNote, findMarked } from './notes.js';

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
    if (existing) {
      if (existing.body === body) return existing;
      try {
        await editNote(clients, job.repo, issue(job), existing.id, body);
        return { id: existing.id, body };
      } catch (err) {
        // Someone deleted the note: write a new one rather than fail forever.
        if (httpStatus(err) !== 404 || !known) throw gitlabError(err);
        return write(job, body, null);
      }
    }
    try {
      const note = await createNote(clients, job.repo, issue(job), body);
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
    acknowledge: (job) => awardOnce(clients, job.repo, { issue: job.issue.number }, 'eyes'),
    write,
    readPrBody: (job) => readMrDescription(clients, job),
    updatePrBody: (job, body) => updateMrDescription(clients, job, body),
  };
}
