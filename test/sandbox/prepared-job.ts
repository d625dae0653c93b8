import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { RepoConfig } from '../../src/events/effect-results.js';
import type { JobContext } from '../../src/machines/job-context.js';
import { createTestEffects } from '../../src/sandbox/test-effects.js';
import { createWorkspace } from '../../src/workspace/workspace.js';
import { makeRemote, nodeSample, sampleJob, tempDir } from '../fixtures/git-fixtures.js';

// A job prepared on a real clone of the Node sample repository, with the real test effects over
// it: what the sandbox's effect tests start from. Each test gets its own folder, removed after it.

const signal = new AbortController().signal;
let base = '';
const open: { idle: () => Promise<void> }[] = [];

/** Registers the per-test folder and the clean-up of the workspaces its tests opened. */
export function useScratch() {
  beforeEach(() => {
    base = tempDir();
  });
  afterEach(async () => {
    for (const ws of open.splice(0)) await ws.idle();
    fs.rmSync(base, { recursive: true, force: true });
  });
}

/** A workspace a test opened itself, let go after it with the others. */
export const letGoAfter = (ws: { idle: () => Promise<void> }) => {
  open.push(ws);
};

/** The sample's files (with `files` over them) prepared as job-1, its tests run under bubblewrap. */
export async function preparedJob(files: Record<string, string> = {}, config: Partial<RepoConfig> = {}) {
  const remote = makeRemote(base, { ...nodeSample, ...files });
  const root = path.join(base, 'workdir');
  const ws = createWorkspace({
    root,
    remoteUrl: () => remote.url,
    author: { name: 'b', email: 'b@example.test' },
  });
  open.push(ws);
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
  const effects = createTestEffects({ workspace: ws });
  const input = <S extends 'runBaseline' | 'runTests'>(j: JobContext, step: S) => ({
    key: 'k',
    step,
    attempt: 1,
    notBefore: null,
    job: j,
  });
  return { ws, root, job, effects, input, signal, dir: path.join(root, 'jobs/job-1') };
}
