import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { usageOf } from '../../src/claude/price-table.js';
import type { TestRun } from '../../src/events/effect-results.js';
import type { EffectImpls } from '../../src/machines/effect-contract.js';
import { foldJob } from '../../src/machines/fold.js';
import { cleanOutput } from '../../src/sandbox/clean-output.js';
import { totalsOf } from '../../src/sandbox/reports/case-list.js';
import { parseTap } from '../../src/sandbox/reports/tap.js';
import { failingIds, judge } from '../../src/sandbox/test-verdict.js';
import { renderPrBody } from '../../src/views/pr-body.js';
import { renderProgress } from '../../src/views/progress-render.js';
import { harness } from '../support/job-harness.js';
import { scriptedEffects } from '../support/scripted-effects.js';

// What a maintainer reads, pinned whole: the progress comment of a job whose first attempt fails and
// whose second passes, and the body of a PR whose tests never passed. The test runs are real:
// node:test 20.20 ran on a copy of the demo repository (test/views/golden/node-test/, the workspace
// path renamed), and each is read by booty's own parser and verdict, as the test step reads it.
// The job goes through the supervisor and its log is folded, as the reporter folds it.
// UPDATE_GOLDEN=1 npx vitest run test/views/progress-golden.test.ts writes the files anew.

const GOLDEN = fileURLToPath(new URL('./golden', import.meta.url));
const RUNS = path.join(GOLDEN, 'node-test');
const CWD = '/home/runner/work/tiny-durations';
const VIEW = 'https://booty.example.com';

const read = (name: string) => fs.readFileSync(path.join(RUNS, name), 'utf8');

/** A recorded run as the test step makes it: the TAP report's cases, the cleaned output, the verdict. */
function recordedRun(
  name: string,
  exit: { code: number; ms: number },
  baseline: Omit<TestRun, 'at'> | null,
): Omit<TestRun, 'at'> {
  const report = parseTap(read(`${name}.tap`), CWD);
  const facts = {
    command: 'npm test',
    ran: true,
    exitCode: exit.code,
    signal: null,
    timedOut: false,
    durationMs: exit.ms,
    outputTail: cleanOutput(read(`${name}.out`), { workspace: CWD }),
    source: 'tap' as const,
    cases: report.cases,
    loadErrors: report.loadErrors,
    totals: totalsOf(report.cases),
    sandbox: 'bwrap' as const,
  };
  if (!baseline) {
    const failing = failingIds(facts);
    return {
      ...facts,
      broken: null,
      verdict: 'pass',
      reasons: [],
      passed: true,
      failingTests: failing,
      newFailures: [],
      baselineFailures: failing,
      changedTests: [],
      addedTestsFailing: [],
    };
  }
  const judgement = judge({ baseline, run: facts, touched: [] });
  return { ...facts, broken: null, ...judgement, passed: judgement.verdict === 'pass' };
}

const baseline = recordedRun('baseline', { code: 0, ms: 612 }, null);
const failing = recordedRun('attempt-1', { code: 1, ms: 698 }, baseline);
const passing = recordedRun('attempt-2', { code: 0, ms: 655 }, baseline);

const EXPLANATIONS = [
  'Added parseDuration to src/duration.js: a sticky regular expression reads number+unit parts and sums them; common durations are parsed once at load. Tests in test/parse-duration.test.js.',
  'parseDuration now tries "ms" before "m", so "250ms" is 250 milliseconds, and keeps the end of the last part itself (exec resets lastIndex when it fails). The parse at load is gone: it threw after the tests had ended.',
];

/** A job through the supervisor with these test runs per attempt; the model's turns priced as Sonnet's. */
async function job(runs: Omit<TestRun, 'at'>[]) {
  const scripted = scriptedEffects({ maxAttempts: 3 }).impls;
  let turn = 0;
  const priced = (input: number, output: number) =>
    usageOf('claude-sonnet-4-6', {
      input_tokens: input,
      output_tokens: output,
      // The first call writes the repository prefix to the cache; later calls read it.
      cache_creation_input_tokens: turn++ === 0 ? 2_948 : 0,
      cache_read_input_tokens: turn > 1 ? 3_174 : 0,
    });
  // The code that ran: the fixed version for a run that passed, the first one otherwise.
  const change = (attempt: number) => {
    const version = runs[attempt - 1]!.passed ? 2 : 1;
    return {
      changes: [
        { path: 'src/duration.js', content: read(`attempt-${version}.duration.js.txt`) },
        { path: 'test/parse-duration.test.js', content: read('parse-duration.test.js.txt') },
      ],
      explanation: EXPLANATIONS[version - 1]!,
    };
  };
  const bodies: string[] = [];
  const effects: EffectImpls = {
    ...scripted,
    runBaseline: async () => baseline,
    analyze: async (input, ctx) => ({ ...(await scripted.analyze(input, ctx)), usage: priced(1_212, 388) }),
    generate: async (input) => ({ ...change(input.attempt), usage: priced(1_031, 1_262) }),
    refine: async (input) => ({ ...change(input.attempt), usage: priced(1_460, 947) }),
    runTests: async (input) => runs[input.attempt - 1]!,
    openPr: async (input, ctx) => {
      bodies.push(renderPrBody(input.job));
      return { ...(await scripted.openPr(input, ctx)), url: 'https://github.test/acme/widgets/pull/7' };
    },
  };
  const h = harness({}, { effects, clock: () => Date.UTC(2026, 10, 23, 9, 30) });
  const r = await h.request();
  if (r.outcome !== 'created') throw new Error(r.outcome);
  await h.supervisor.whenFinished(r.jobId);
  const snapshot = foldJob(await h.store.readStream(r.jobId));
  await h.store.close();
  // The job id has a random part: the golden file names it JOB.
  const stable = (text: string) => text.replaceAll(r.jobId, 'JOB');
  return {
    snapshot,
    comment: stable(renderProgress(snapshot, { jobViewUrl: `${VIEW}/jobs/${r.jobId}/view` })),
    prBody: stable(bodies.at(-1)!),
  };
}

/** The text against its golden file, byte for byte; UPDATE_GOLDEN=1 rewrites the file first. */
function matchesGolden(text: string, file: string) {
  const at = path.join(GOLDEN, file);
  if (process.env.UPDATE_GOLDEN === '1') fs.writeFileSync(at, `${text}\n`);
  expect(`${text}\n`).toBe(fs.readFileSync(at, 'utf8'));
}

describe('what a maintainer reads', () => {
  it('the comment of a job that passed on its second attempt keeps the first attempt’s failure', async () => {
    const { snapshot, comment } = await job([failing, passing]);
    expect(snapshot.value).toBe('promoted');
    matchesGolden(comment, 'refine-comment.md');
    // What the golden file must keep saying, whoever regenerates it.
    expect(comment).toContain(
      '<details><summary>What failed in attempt 1: 3 failing tests and 1 failing file</summary>',
    );
    expect(comment).toContain('File `test/format-duration.test.js` failed outside its tests:');
    expect(comment).not.toMatch(/node:internal|node:async_hooks|TAP version|# Subtest|mermaid|did not load/);
  });

  it('the comment and the PR body of a job whose tests never passed', async () => {
    const { snapshot, comment, prBody } = await job([failing, failing, failing]);
    // The job does not end: it waits with its draft PR.
    expect(snapshot.value).toBe('prOpened');
    expect(snapshot.context.outcome?.reason).toBe('tests-failing');
    matchesGolden(comment, 'failing-comment.md');
    matchesGolden(prBody, 'failing-pr-body.md');
    expect(prBody).toContain('\n\nRefs #1');
    expect(prBody).not.toContain('Closes');
    expect(`${comment}\n${prBody}`).not.toMatch(/node:internal|TAP version|# Subtest/);
  });

  it('the recorded runs are what the golden files claim: a file-level TAP failure and node internals', () => {
    // node:test names a file whose process failed after its tests by its path: that is no test.
    expect(failing.failingTests).toContain('test/format-duration.test.js (did not load)');
    expect(failing.outputTail).toContain('(node:internal/test_runner/test:796:25)');
    expect(passing.verdict).toBe('pass');
  });
});
