import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestRun } from '../../src/events/effect-results.js';
import { type JobContext, mergeChanges } from '../../src/machines/job-context.js';
import { createTestEffects } from '../../src/sandbox/test-effects.js';
import { createWorkspace } from '../../src/workspace/workspace.js';
import { sampleJobView } from '../support/job-harness.js';
import { type CorpusCase, corpusCases } from './cases.js';
import { corpusDeps, materializeRepo } from './materialize.js';

// booty's test step on every case of the corpus: the real workspace (a clone of a real repository),
// the real install and test commands under bubblewrap, the real reporters and the real verdict.
// Each row asserts the exact verdict and counts the README's table promises.

const signal = new AbortController().signal;
let root: string;
let deps: string;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'booty-corpus-'));
  deps = await corpusDeps();
}, 300_000);
// Each row removes its own tree as it ends, so this removes only what a failed row left.
afterAll(() => fs.promises.rm(root, { recursive: true, force: true }), 300_000);

/** What the table counts: cases, with files that did not load counted as failed. */
function seen(run: Omit<TestRun, 'at'>) {
  return {
    passed: run.totals.passed,
    failed: run.totals.failed + run.totals.errored + run.loadErrors.length,
    skipped: run.totals.skipped,
    failing: [
      ...run.cases.filter((c) => c.status === 'failed' || c.status === 'errored').map((c) => c.id),
      ...run.loadErrors.map((e) => e.file),
    ].sort(),
  };
}

type Forge = 'github' | 'gitlab';

const rowDir = (c: CorpusCase, forge: Forge) => path.join(root, `${forge}-${c.framework}-${c.name}`);

async function testStep(c: CorpusCase, forge: Forge) {
  const into = rowDir(c, forge);
  const repo = await materializeRepo(c.repo, into, { deps, forge });
  const ws = createWorkspace({
    root: path.join(into, 'work'),
    remoteUrl: () => repo.dir,
    author: { name: 'booty', email: 'booty@example.test' },
    spares: false,
  });
  const effects = createTestEffects({
    workspace: ws,
    sandbox: 'required',
    roPaths: [deps],
    parentEnv: repo.extraPath
      ? { ...process.env, PATH: `${repo.extraPath}:${process.env.PATH}` }
      : process.env,
  });
  const input = (job: JobContext, step: 'prepare' | 'runBaseline' | 'applyChanges' | 'runTests') => ({
    key: `${job.jobId}:${step}`,
    step,
    attempt: 1,
    notBefore: null,
    job,
  });
  let job = sampleJobView({ jobId: 'corpus-job', repo: { forge, owner: 'corpus', name: c.repo } });
  const prepared = await ws.prepare(input(job, 'prepare'), { signal });
  job = { ...job, workspace: { baseSha: prepared.baseSha, defaultBranch: 'main' }, config: prepared.config };
  const baseline = await effects.runBaseline(input(job, 'runBaseline'), { signal });
  if (baseline.broken) return { baseline, after: null };

  const proposed = Object.entries(c.change).map(([p, content]) => ({ path: p, content }));
  const applying = {
    ...job,
    baseline: { ...baseline, at: 0 },
    proposal: { changes: proposed, explanation: '' },
  };
  const applied = await ws.applyChanges(input(applying, 'applyChanges'), { signal });
  expect(applied.rejected).toEqual([]);
  const tested = { ...applying, proposal: null, changes: mergeChanges([], applied.applied) };
  const after = await effects.runTests(input(tested, 'runTests'), { signal });
  return { baseline, after };
}

/**
 * Every case on both forges, each row held to the case's one expected verdict. On GitLab the
 * settings live in .gitlab/booty.yml: a GitLab row whose settings were not read fails wherever the
 * settings decide the verdict (every broken-command case names its test command there).
 */
const rows = (['github', 'gitlab'] as const).flatMap((forge) =>
  corpusCases.map((c) => [`${forge} ${c.framework} ${c.name}`, c, forge] as const),
);

describe.concurrent('the test step on the corpus, on both forges, with the same verdicts', () => {
  it.each(rows)('%s', async (_, c, forge) => {
    const { baseline, after } = await testStep(c, forge);
    await fs.promises.rm(rowDir(c, forge), { recursive: true, force: true });
    const diagnosis = `\n--- baseline output ---\n${baseline.outputTail.slice(-1500)}\n--- after ---\n${after?.outputTail.slice(-1500) ?? ''}\n${JSON.stringify(after?.reasons ?? baseline.broken)}`;
    expect({ broken: baseline.broken?.reason ?? null, ...seen(baseline) }, diagnosis).toEqual(
      c.expect.baseline,
    );
    if (c.expect.after === null) {
      expect(after).toBeNull();
      return;
    }
    expect(after, diagnosis).not.toBeNull();
    expect({ verdict: after!.verdict, ...seen(after!) }, diagnosis).toEqual(c.expect.after);
    // The tests ran inside bubblewrap, and nothing from their output kept a terminal escape.
    expect(after!.sandbox).toBe('bwrap');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the ESC byte is what must be absent.
    expect(after!.outputTail).not.toMatch(/\u001b|\[\d{1,2}m/);
  });
});
