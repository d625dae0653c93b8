import path from 'node:path';
import { BootyError } from '../errors.js';
import type { RepoRef } from '../events/job-events.js';

// Where things live under the workdir: `mirrors/<owner>/<name>.git` (bare, shared by every job on
// the repository), `spares/<owner>/<name>` (a clone made ahead of its job) and `jobs/<jobId>`
// (one clone per job). Names become path segments, so they
// are checked to be plain segments first.

const SEGMENT = /^(?!\.{1,2}$)[A-Za-z0-9._-]+$/;

function segment(value: string, what: string): string {
  if (!SEGMENT.test(value)) {
    throw new BootyError('BOOTY_E_GIT_FAILED', {
      op: 'layout',
      reason: `${what} "${value}" is not a plain name`,
    });
  }
  return value;
}

export const mirrorPath = (root: string, repo: RepoRef) =>
  path.join(
    path.resolve(root),
    'mirrors',
    segment(repo.owner, 'owner'),
    `${segment(repo.name, 'repository')}.git`,
  );

/** A clone checked out ahead of time, waiting for the repository's next job. */
export const sparePath = (root: string, repo: RepoRef) =>
  path.join(path.resolve(root), 'spares', segment(repo.owner, 'owner'), segment(repo.name, 'repository'));

export const jobPath = (root: string, jobId: string) =>
  path.join(path.resolve(root), 'jobs', segment(jobId, 'job id'));

/** booty's note about a job clone, kept inside its .git so it travels with the clone. */
export const METADATA = path.join('.git', 'booty-workspace.json');

/** The sandbox's HOME for one job, beside its clone: what the install step puts there stays for
 * every test run of the job, and goes with the job. */
export const jobHomePath = (root: string, jobId: string) =>
  path.join(path.resolve(root), 'homes', segment(jobId, 'job id'));
