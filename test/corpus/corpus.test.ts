import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestRun } from '../../src/events/effect-results.js';
import { type JobContext, mergeChanges } from '../../src/machines/job-context.js';
import { createTestEffects } from '../../src/sandbox/test-effects.js';
import { createWorkspace } from '../../src/workspace/workspace.js';
import { sampleJobView } from '../support/job-harness.js';
import { machinePluginsOff } from '../support/machine-plugins-off.js';
import { type CorpusCase, corpusCases } from './cases.js';
import { corpusDeps, materializeRepo } from './materialize.js';

// booty's test step on every case of the corpus: the real workspace (a clone of a real repository),
// the real install and test commands under bubblewrap, the real reporters and the real verdict.
// Each row asserts the exact verdict and counts the README's table promises. Cases on the same
// repository share its baseline run on each forge (repoOnForge); each forge runs its own.

const signal = new AbortController().signal;
let root: string;
let deps: string;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'booty-corpus-'));
  deps = await corpusDeps();
}, 300_000);
// Each repository's tree goes as its last row ends, so this removes only what a failed row left.
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
type Step = 'prepare' | 'runBaseline' | 'applyChanges' | 'runTests';

const input = (job: JobContext, step: Step) => ({
  key: `${job.jobId}:${step}`,
  step,
  attempt: 1,
  notBefore: null,
  job,
});

/** The first case of each corpus repository: it runs the repository's baseline. */
const firstOf = (c: CorpusCase) => corpusCases.find((other) => other.repo === c.repo)!;

/**
 * A corpus repository on one forge, materialized once, with its baseline run once: the cases that
 * share a repository (correct-change and breaking-change on `*-basic`, for instance) share its
 * commit, config and baseline, so they share the run too. Removed when its last case ends.
 */
interface RepoOnForge {
  ws: ReturnType<typeof createWorkspace>;
  effects: ReturnType<typeof createTestEffects>;
  /** The job that ran the baseline, prepared; the repository's first case goes on in it. */
  job: JobContext;
  baseline: Awaited<ReturnType<ReturnType<typeof createTestEffects>['runBaseline']>>;
}

/** Each repository on each forge: its shared run once a case asked for it, and its cases not ended. */
const repos = new Map<string, { ready?: Promise<RepoOnForge>; cases: number }>();
const repoKey = (c: CorpusCase, forge: Forge) => `${forge}-${c.repo}`;
for (const c of corpusCases) {
  for (const forge of ['github', 'gitlab'] as const) {
    const shared = repos.get(repoKey(c, forge)) ?? { cases: 0 };
    shared.cases += 1;
    repos.set(repoKey(c, forge), shared);
  }
}

async function prepared(ws: RepoOnForge['ws'], forge: Forge, c: CorpusCase, jobId: string) {
  const job = sampleJobView({ jobId, repo: { forge, owner: 'corpus', name: c.repo } });
  const done = await ws.prepare(input(job, 'prepare'), { signal });
  return { ...job, workspace: { baseSha: done.baseSha, defaultBranch: 'main' }, config: done.config };
}

async function repoOnForge(c: CorpusCase, forge: Forge): Promise<RepoOnForge> {
  const dir = path.join(root, repoKey(c, forge));
  const repo = await materializeRepo(c.repo, dir, { deps, forge });
  const ws = createWorkspace({
    root: path.join(dir, 'work'),
    remoteUrl: () => repo.dir,
    author: { name: 'booty', email: 'booty@example.test' },
    spares: false,
  });
  const effects = createTestEffects({
    workspace: ws,
    sandbox: 'required',
    roPaths: [deps],
    passEnv: machinePluginsOff,
    parentEnv: repo.extraPath
      ? { ...process.env, PATH: `${repo.extraPath}:${process.env.PATH}` }
      : process.env,
  });
  const job = await prepared(ws, forge, c, 'corpus-job');
  const baseline = await effects.runBaseline(input(job, 'runBaseline'), { signal });
  return { ws, effects, job, baseline };
}

async function testStep(c: CorpusCase, forge: Forge) {
  const shared = repos.get(repoKey(c, forge))!;
  shared.ready ??= repoOnForge(c, forge);
  const { ws, effects, job: baseJob, baseline } = await shared.ready;
  if (baseline.broken) return { baseline, after: null };

  // A further case goes on in a job of its own, cloned at the same commit: its install runs with
  // its first test run, as in a workspace rebuilt from the log.
  const job = c === firstOf(c) ? baseJob : await prepared(ws, forge, c, `corpus-job-${c.name}`);
  expect(job.workspace!.baseSha).toBe(baseJob.workspace!.baseSha);
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

/** Removes a repository's tree once the last of its cases on that forge has ended. */
async function caseEnded(c: CorpusCase, forge: Forge) {
  const shared = repos.get(repoKey(c, forge))!;
  shared.cases -= 1;
  if (shared.cases > 0) return;
  await fs.promises.rm(path.join(root, repoKey(c, forge)), { recursive: true, force: true });
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
    const { baseline, after } = await testStep(c, forge).finally(() => caseEnded(c, forge));
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
