import path from 'node:path';
import type { RepoConfig } from '../../src/events/effect-results.js';
import type { JobContext } from '../../src/machines/job-context.js';
import { createTestEffects, type TestEffectsOptions } from '../../src/sandbox/test-effects.js';
import { createWorkspace } from '../../src/workspace/workspace.js';
import { makeRemote, nodeSample, sampleJob } from '../fixtures/git-fixtures.js';
import { base, letGoAfter, signal } from '../fixtures/workspace-scratch.js';

// A job prepared on a real clone of the Node sample repository, with the real test effects over
// it: what the sandbox's effect tests start from, in the folder useScratch() gives each test.

/** The sample's files (with `files` over them) prepared as job-1, its tests run under bubblewrap. */
export const preparedJob = (files: Record<string, string> = {}, config: Partial<RepoConfig> = {}) =>
  preparedRepo({ ...nodeSample, ...files }, config);

/** A repository of exactly these files prepared as job-1, with the test effects' options given. */
export async function preparedRepo(
  files: Record<string, string>,
  config: Partial<RepoConfig> = {},
  effectOptions: Omit<TestEffectsOptions, 'workspace'> = {},
) {
  const remote = makeRemote(base, files);
  const root = path.join(base, 'workdir');
  const ws = createWorkspace({
    root,
    remoteUrl: () => remote.url,
    author: { name: 'b', email: 'b@example.test' },
  });
  letGoAfter(ws);
  const job0 = sampleJob();
  const out = await ws.prepare(
    { key: 'k', step: 'prepare', attempt: 0, notBefore: null, job: job0 },
    { signal },
  );
  const job: JobContext = {
    ...job0,
    workspace: { baseSha: out.baseSha, defaultBranch: out.defaultBranch },
    config: { ...out.config, sandbox: 'required', timeoutSeconds: 60, ...config },
  };
  const effects = createTestEffects({ ...effectOptions, workspace: ws });
  const input = <S extends 'runBaseline' | 'runTests'>(j: JobContext, step: S) => ({
    key: 'k',
    step,
    attempt: 1,
    notBefore: null,
    job: j,
  });
  return { ws, root, job, effects, input, signal, dir: path.join(root, 'jobs/job-1') };
}
