import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestRun } from '../../src/events/effect-results.js';
import { type JobContext, mergeChanges } from '../../src/machines/job-context.js';
import { createTestEffects } from '../../src/sandbox/test-effects.js';
import { createWorkspace } from '../../src/workspace/workspace.js';
import { makeRemote, nodeSample, sampleJob, tempDir } from '../fixtures/git-fixtures.js';

// The baseline and test effects end to end: a real clone of a Node sample repository, its real
// `npm ci` and `node --test`, under bubblewrap.

const signal = new AbortController().signal;
const legacy = 'test/legacy.test.js > already broken';

let base: string;
const open: { idle: () => Promise<void> }[] = [];
beforeEach(() => {
  base = tempDir();
});
afterEach(async () => {
  for (const ws of open.splice(0)) await ws.idle();
  fs.rmSync(base, { recursive: true, force: true });
});

async function preparedJob() {
  const remote = makeRemote(base, nodeSample);
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
    config: { ...out.config, sandbox: 'required', timeoutSeconds: 60 },
  };
  const effects = createTestEffects({ workspace: ws });
  const input = (j: JobContext, step: 'runBaseline' | 'runTests') => ({
    key: 'k',
    step,
    attempt: 1,
    notBefore: null,
    job: j,
  });
  return { ws, root, job, effects, input, dir: path.join(root, 'jobs/job-1') };
}

function withChanges(
  job: JobContext,
  baseline: Omit<TestRun, 'at'>,
  files: Record<string, string>,
  addedTests: string[],
) {
  return {
    ...job,
    baseline: { ...baseline, at: 0 },
    changes: mergeChanges(
      job.changes,
      Object.entries(files).map(([p, content]) => ({ path: p, content })),
    ),
    addedTests,
  };
}

const usage = {
  model: 'm',
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd: 0,
};
const proposing = (job: JobContext) => ({
  key: 'k',
  step: 'applyChanges' as const,
  attempt: 1,
  notBefore: null,
  job: { ...job, proposal: { at: 0, changes: job.changes, explanation: '', usage } },
});

describe('test effects', () => {
  it('records the failures the base commit already has, then judges later runs against them', async () => {
    const { ws, job, effects, input, dir } = await preparedJob();
    const baseline = await effects.runBaseline(input(job, 'runBaseline'), { signal });
    expect(baseline).toMatchObject({
      command: 'npm test',
      passed: false,
      exitCode: 1,
      timedOut: false,
      failingTests: [legacy],
      baselineFailures: [legacy],
      newFailures: [],
      sandbox: 'bwrap',
    });
    expect(fs.existsSync(path.join(dir, '.git/booty-installed'))).toBe(true);

    // A passing added test: no new failures, so the run passes although the suite exits 1.
    const good = withChanges(
      job,
      baseline,
      { 'test/sum.test.js': "require('node:test')('sums', () => {});\n" },
      ['test/sum.test.js'],
    );
    await ws.applyChanges(proposing(good), { signal });
    const passing = await effects.runTests(input(good, 'runTests'), { signal });
    expect(passing).toMatchObject({
      passed: true,
      exitCode: 1,
      failingTests: [legacy],
      newFailures: [],
      addedTestsFailing: [],
    });

    // The workspace is lost; the next run rebuilds it, installs again, and sees a failing added test.
    fs.rmSync(dir, { recursive: true, force: true });
    const bad = withChanges(
      job,
      baseline,
      { 'test/sum.test.js': "require('node:test')('sums', () => { throw new Error('nope'); });\n" },
      ['test/sum.test.js'],
    );
    const failing = await effects.runTests(input(bad, 'runTests'), { signal });
    expect(failing).toMatchObject({
      passed: false,
      failingTests: [legacy, 'test/sum.test.js > sums'],
      newFailures: ['test/sum.test.js > sums'],
      baselineFailures: [legacy],
      addedTestsFailing: ['test/sum.test.js'],
    });
    expect(failing.outputTail).toContain('nope');
    expect(fs.existsSync(path.join(dir, '.git/booty-installed'))).toBe(true);
  });

  it("keeps the clone's .git read-only for the tests, so nothing they write there runs later outside the sandbox", async () => {
    const { job, effects, input, dir } = await preparedJob();
    const sneaky = {
      ...job,
      config: {
        ...job.config!,
        install: null,
        test: { command: 'echo x > .git/hooks/pre-commit; echo y > .git/config.evil; node --test' },
      },
    };
    const run = await effects.runBaseline(input(sneaky, 'runBaseline'), { signal });
    expect(run.sandbox).toBe('bwrap');
    expect(run.outputTail).toMatch(/Read-only file system/);
    expect(fs.existsSync(path.join(dir, '.git/hooks/pre-commit'))).toBe(false);
    expect(fs.existsSync(path.join(dir, '.git/config.evil'))).toBe(false);
  });
});
