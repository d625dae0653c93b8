import fs from 'node:fs';
import path from 'node:path';
import type { Applied } from '../../src/events/effect-results.js';
import { type JobContext, mergeChanges } from '../../src/machines/job-context.js';
import { createWorkspace, type Workspace } from '../../src/workspace/workspace.js';
import { type Files, makeRemote, nodeSample, sampleJob, sh, writeFiles } from '../fixtures/git-fixtures.js';

// A job whose PR is open, on real repositories: a bare remote, booty's workspace, and a human with
// a clone of their own who pushes to the PR's branch. The caller makes and removes `base`.

export const author = { name: 'booty[bot]', email: 'booty[bot]@users.noreply.github.com' };
const signal = new AbortController().signal;
const input = (job: JobContext, step: 'prepare' | 'applyChanges') => ({
  key: `${job.jobId}:${step}:0`,
  step,
  attempt: 0,
  notBefore: null,
  job,
});

export function roundWorld(base: string, files: Files = nodeSample) {
  const remote = makeRemote(base, files);
  const root = path.join(base, 'workdir');
  const ws = createWorkspace({ root, remoteUrl: () => remote.url, author });
  const humanDir = path.join(base, 'human');

  /** The job after applying `changes` as the machine records them. */
  async function apply(job: JobContext, changes: JobContext['changes']): Promise<JobContext> {
    const proposal = { changes, explanation: '' };
    const out = (await ws.applyChanges(input({ ...job, proposal }, 'applyChanges'), { signal })) as Omit<
      Applied,
      'at'
    >;
    return { ...job, changes: mergeChanges(job.changes, out.applied) };
  }

  /** A job whose first push made its PR branch: `src/sum.js` added on the default branch's head. */
  async function openPr(): Promise<{ job: JobContext; first: string }> {
    const job = sampleJob();
    const prepared = await ws.prepare(input(job, 'prepare'), { signal });
    const withBase = {
      ...job,
      workspace: { baseSha: prepared.baseSha, defaultBranch: prepared.defaultBranch },
    };
    const done = await apply(withBase, [{ path: 'src/sum.js', content: 'exports.sum = (a, b) => a + b;\n' }]);
    const { headSha } = await ws.commitAndPush({ job: done });
    return { job: done, first: headSha };
  }

  /** What the machine does when a round starts: the synced head becomes the base, no changes yet. */
  async function startRound(job: JobContext): Promise<JobContext> {
    const { headSha } = await ws.syncRound(job, signal);
    return { ...job, workspace: { ...job.workspace!, baseSha: headSha }, changes: [] };
  }

  /** A human commits `files` (null deletes) on top of the remote's `branch` and pushes it. */
  function humanPush(branch: string, change: Record<string, string | null>, message = 'human work'): string {
    if (!fs.existsSync(humanDir)) sh(base, 'clone', '--quiet', remote.bare, humanDir);
    sh(humanDir, 'fetch', '--quiet', 'origin');
    sh(humanDir, 'checkout', '--quiet', '-B', branch, `origin/${branch}`);
    for (const [file, content] of Object.entries(change)) {
      if (content === null) fs.rmSync(path.join(humanDir, file));
      else writeFiles(humanDir, { [file]: content });
    }
    sh(humanDir, 'add', '--all');
    sh(humanDir, 'commit', '--quiet', '-m', message);
    sh(humanDir, 'push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`);
    return sh(humanDir, 'rev-parse', 'HEAD');
  }

  /** The branch's commits on the remote, newest first. */
  const log = (branch: string) => sh(remote.bare, 'log', '--format=%H', `refs/heads/${branch}`).split('\n');
  /** Every ref on the remote with its sha: equal means nothing was pushed. */
  const refs = () => sh(remote.bare, 'for-each-ref', '--format=%(objectname) %(refname)');

  return {
    remote,
    root,
    ws: ws as Workspace,
    jobDir: (job: JobContext) => path.join(root, 'jobs', job.jobId),
    apply,
    openPr,
    startRound,
    humanPush,
    log,
    refs,
    signal,
  };
}
