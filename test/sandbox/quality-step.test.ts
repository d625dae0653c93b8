import { describe, expect, it } from 'vitest';
import type { TestRun } from '../../src/events/effect-results.js';
import { type JobContext, mergeChanges } from '../../src/machines/job-context.js';
import { baselineQuality } from '../../src/sandbox/quality-step.js';
import { runCommand } from '../../src/sandbox/run-command.js';
import { nodeSample } from '../fixtures/git-fixtures.js';
import { base, useScratch } from '../fixtures/workspace-scratch.js';
import { preparedJob } from './prepared-job.js';

// The quality commands through the real test effects: a real clone, real `node --test`, and a real
// lint script run under bubblewrap after the tests, on the base commit and after each change.

const _signal = new AbortController().signal;

/** A linter in the repository: every console.log under src/ is a finding at its file and line. */
const LINT = `const fs = require('node:fs');
let found = 0;
for (const f of fs.readdirSync('src')) {
  fs.readFileSync('src/' + f, 'utf8').split('\\n').forEach((line, i) => {
    const col = line.indexOf('console.log');
    if (col >= 0) { found++; console.log('src/' + f + ':' + (i + 1) + ':' + (col + 1) + ': no-console'); }
  });
}
process.exit(found ? 1 : 0);
`;
const MATH = nodeSample['src/math.js']!;

useScratch();

async function lintedJob(files: Record<string, string>, commands: string[]) {
  const { job, effects, input, signal } = await preparedJob(
    { 'scripts/lint.js': LINT, ...files },
    { quality: { commands } },
  );
  const run = <S extends 'runBaseline' | 'runTests'>(j: JobContext, step: S) =>
    effects[step](input(j, step), { signal });
  const baseline = await run(job, 'runBaseline');
  /** The change's run: written into the tree as applyChanges would, then tested. */
  const testChange = async (changed: Record<string, string>) => {
    const next: JobContext = {
      ...job,
      baseline: { ...baseline, at: 0 },
      changes: mergeChanges(
        [],
        Object.entries(changed).map(([p, content]) => ({ path: p, content })),
      ),
    };
    return run(next, 'runTests');
  };
  return { baseline, testChange };
}

const quality = (run: Omit<TestRun, 'at'>) =>
  run.quality?.map(({ command, verdict, reason, findings, newFindings }) => ({
    command,
    verdict,
    reason,
    findings,
    newFindings,
  }));

describe('quality commands in the test step', () => {
  it('given a lint clean on the base, when the change adds a finding, then the run fails with it, though its tests pass', async () => {
    const { baseline, testChange } = await lintedJob({}, ['node scripts/lint.js']);
    expect(quality(baseline)).toEqual([
      { command: 'node scripts/lint.js', verdict: 'pass', reason: null, findings: [], newFindings: [] },
    ]);
    const run = await testChange({ 'src/math.js': `${MATH}console.log('debug');\n` });
    expect(run.totals).toMatchObject({ passed: 2, failed: 1 });
    expect(run.newFailures).toEqual([]);
    expect(run).toMatchObject({ verdict: 'fail', passed: false, failureClass: 'unknown' });
    expect(quality(run)).toEqual([
      {
        command: 'node scripts/lint.js',
        verdict: 'fail',
        reason: 'passed on the base commit and exited 1 after the change',
        findings: ['src/math.js: no-console'],
        newFindings: ['src/math.js: no-console'],
      },
    ]);
    expect(run.quality![0]!.outputTail).toBe('src/math.js:3:1: no-console\n');
  });

  it('given a lint finding already on the base, when the change moves it and adds none, then the run passes', async () => {
    const { baseline, testChange } = await lintedJob({ 'src/old.js': "console.log('old');\n" }, [
      'node scripts/lint.js',
    ]);
    expect(quality(baseline)).toEqual([
      {
        command: 'node scripts/lint.js',
        verdict: 'fail',
        reason: 'exited 1 on the base commit',
        findings: ['src/old.js: no-console'],
        newFindings: [],
      },
    ]);
    const run = await testChange({ 'src/old.js': "// moved down a line\nconsole.log('old');\n" });
    expect(run).toMatchObject({ verdict: 'pass', passed: true });
    expect(run.failureClass).toBeUndefined();
    expect(quality(run)).toEqual([
      {
        command: 'node scripts/lint.js',
        verdict: 'pass',
        reason: 'already failed on the base commit; the change adds no finding',
        findings: ['src/old.js: no-console'],
        newFindings: [],
      },
    ]);
  });

  it('given tests that fail after the change, then no quality command runs: the failing test comes first', async () => {
    const { testChange } = await lintedJob({}, ['node scripts/lint.js']);
    const run = await testChange({
      'src/math.js': 'exports.add = () => 0;\nexports.sub = () => 0;\nconsole.log(1);\n',
    });
    expect(run).toMatchObject({ verdict: 'fail', failureClass: 'assertion' });
    expect(run.quality).toBeUndefined();
  });

  it('runs each command on exactly the change: what one command rewrote, the next does not see', async () => {
    const vandal = `node -e "require('fs').writeFileSync('src/math.js', 'console.log(1)')"`;
    const { testChange } = await lintedJob({}, [vandal, 'node scripts/lint.js']);
    const run = await testChange({ 'src/math.js': `${MATH}// booty\n` });
    expect(quality(run)?.map((q) => q.verdict)).toEqual(['pass', 'pass']);
    expect(run.passed).toBe(true);
  });

  it('given a quality command the sandbox cannot find, then the attempt is classed environment', async () => {
    const { baseline, testChange } = await lintedJob({}, ['lint-nowhere --check']);
    expect(baseline.quality![0]).toMatchObject({ verdict: 'fail', exitCode: 127 });
    const run = await testChange({ 'src/math.js': `${MATH}// booty\n` });
    expect(run).toMatchObject({ verdict: 'unknown', passed: false, failureClass: 'environment' });
    expect(run.quality![0]!.reason).toContain('booty cannot tell whether the change added a failure');
  });

  it('given no quality commands, then nothing more runs and the runs carry no quality field', async () => {
    const { baseline, testChange } = await lintedJob({}, []);
    expect(baseline.quality).toBeUndefined();
    const run = await testChange({ 'src/math.js': `${MATH}console.log('debug');\n` });
    expect(run).toMatchObject({ verdict: 'pass', passed: true });
    expect('quality' in run).toBe(false);
  });

  it('marks a run incomplete when its output was cut or its findings reached the cap, so no comparison passes on it', async () => {
    const printing = (n: number) =>
      `node -e "for (let i = 1; i <= ${n}; i++) console.log('src/f' + i + '.js:1: no-var')"`;
    const step = (outputCapBytes: number, commands: string[]) =>
      baselineQuality({
        commands,
        tree: async () => base,
        exec: (cwd, command) =>
          runCommand({ cwd, command, timeoutMs: 30_000, sandbox: 'off', network: false, outputCapBytes }),
        clean: (output) => output,
      });
    const [few, many] = await step(1024 * 1024, [printing(3), printing(1_200)]);
    expect([few!.incomplete, few!.findings.length]).toEqual([false, 3]);
    expect([many!.incomplete, many!.findings.length]).toEqual([true, 1_000]);
    const [cut] = await step(200, [printing(50)]);
    expect(cut!.incomplete).toBe(true);
    expect(cut!.findings.length).toBeLessThan(50);
  });
});
