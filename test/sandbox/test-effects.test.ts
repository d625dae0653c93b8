import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestRun } from '../../src/events/effect-results.js';
import { type JobContext, mergeChanges } from '../../src/machines/job-context.js';
import { createTestEffects } from '../../src/sandbox/test-effects.js';
import { createWorkspace } from '../../src/workspace/workspace.js';
import { letGoAfter, useScratch } from '../fixtures/workspace-scratch.js';
import { preparedJob } from './prepared-job.js';

// The baseline and test effects end to end: a real clone of a Node sample repository, its real
// `npm ci` and `node --test`, under bubblewrap.

const signal = new AbortController().signal;
const legacy = 'test/legacy.test.js > already broken';

useScratch();

function withChanges(
  job: JobContext,
  baseline: Omit<TestRun, 'at'>,
  files: Record<string, string>,
  addedTests: string[],
): JobContext {
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
  it('records the failures the base commit already has, then judges later runs against them by test id', async () => {
    const { ws, job, effects, input, dir } = await preparedJob();
    const baseline = await effects.runBaseline(input(job, 'runBaseline'), { signal });
    expect(baseline).toMatchObject({
      command: 'npm test',
      ran: true,
      broken: null,
      exitCode: 1,
      timedOut: false,
      source: 'tap',
      totals: { total: 3, passed: 2, failed: 1, errored: 0, skipped: 0 },
      failingTests: [legacy],
      baselineFailures: [legacy],
      sandbox: 'bwrap',
    });
    expect(fs.existsSync(path.join(dir, '.git/booty-installed'))).toBe(true);

    // A passing added test: nothing that passed before fails, so the run passes although it exits 1.
    const good = withChanges(
      job,
      baseline,
      { 'test/sum.test.js': "require('node:test')('sums', () => {});\n" },
      ['test/sum.test.js'],
    );
    await ws.applyChanges(proposing(good), { signal });
    const passing = await effects.runTests(input(good, 'runTests'), { signal });
    expect(passing).toMatchObject({
      verdict: 'pass',
      passed: true,
      exitCode: 1,
      failingTests: [legacy],
      newFailures: [],
      changedTests: ['test/sum.test.js > sums'],
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
      verdict: 'fail',
      passed: false,
      failingTests: [legacy, 'test/sum.test.js > sums'],
      newFailures: ['test/sum.test.js > sums'],
      baselineFailures: [legacy],
      addedTestsFailing: ['test/sum.test.js > sums'],
    });
    expect(failing.cases.find((c) => c.id === 'test/sum.test.js > sums')?.message).toContain('nope');
    expect(fs.existsSync(path.join(dir, '.git/booty-installed'))).toBe(true);
  });

  it('keeps what the install step put under HOME for every run of the job', async () => {
    const { job, effects, input } = await preparedJob();
    const installing = {
      ...job,
      config: {
        ...job.config!,
        install: {
          command: 'mkdir -p "$HOME/.local/share/sample" && echo ready > "$HOME/.local/share/sample/tool"',
        },
        test: {
          command: 'test "$(cat "$HOME/.local/share/sample/tool")" = ready && node --test',
          report: [],
        },
      },
    };
    const baseline = await effects.runBaseline(input(installing, 'runBaseline'), { signal });
    expect(baseline.exitCode).toBe(1);
    expect(baseline.totals.passed).toBe(2);
    // The install marker says nothing changed: the second run does not install, and still sees it.
    const again = await effects.runTests(
      input({ ...installing, baseline: { ...baseline, at: 0 } }, 'runTests'),
      {
        signal,
      },
    );
    expect(again.totals.passed).toBe(2);
    expect(again.outputTail).not.toContain('No such file');
  });

  it("keeps Go's build cache as the baseline filled it for the job's later runs, and nothing else the baseline wrote in HOME", async () => {
    const { job, effects, input } = await preparedJob();
    const entry = '"$HOME/.cache/go-build/aa/entry"';
    const tell = { ...job.config!.test, report: [] };
    const filling = {
      ...job,
      config: {
        ...job.config!,
        test: {
          ...tell,
          command: `[ -f ${entry} ] && echo CACHE-KEPT; [ -f "$HOME/.npmrc" ] && echo NPMRC-KEPT; mkdir -p "$HOME/.cache/go-build/aa"; [ -f ${entry} ] || echo built > ${entry}; echo x > "$HOME/.npmrc"; node --test`,
        },
      },
    };
    const baseline = await effects.runBaseline(input(filling, 'runBaseline'), { signal });
    expect(baseline.totals.passed).toBe(2);
    expect(baseline.outputTail).not.toContain('-KEPT');
    const ran = { ...filling, baseline: { ...baseline, at: 0 } };
    const again = await effects.runTests(input(ran, 'runTests'), { signal });
    expect(again.outputTail).toContain('CACHE-KEPT');
    expect(again.outputTail).not.toContain('NPMRC-KEPT');
  });

  it('runs every test on exactly the logged change, whatever an earlier run wrote, even after a restart', async () => {
    const { ws, root, job, effects, input, dir } = await preparedJob();
    const baseline = await effects.runBaseline(input(job, 'runBaseline'), { signal });
    const changed = withChanges(
      job,
      baseline,
      { 'src/math.js': 'exports.add = (a, b) => a + b;\nexports.sub = (a, b) => a - b;\n// booty\n' },
      [],
    );
    await ws.applyChanges(proposing(changed), { signal });
    const withCommand = (command: string) => ({
      ...changed,
      config: { ...changed.config!, test: { command, report: [] } },
    });
    const vandal = withCommand('echo TAMPERED > src/math.js; echo junk > dropped.txt; node --test');
    await effects.runTests(input(vandal, 'runTests'), { signal });
    expect(fs.readFileSync(path.join(dir, 'src/math.js'), 'utf8')).toBe('TAMPERED\n');

    // The next run starts from the logged change, and so does a run in a new process, which
    // knows nothing of what happened to the tree before it.
    const check = withCommand(
      'grep -q "// booty" src/math.js && test ! -e dropped.txt && grep -qx "# sample" README.md',
    );
    const again = await effects.runTests(input(check, 'runTests'), { signal });
    expect(again.exitCode).toBe(0);
    fs.writeFileSync(path.join(dir, 'src/math.js'), 'TAMPERED AGAIN');
    fs.writeFileSync(path.join(dir, 'dropped.txt'), 'junk');
    const restarted = createWorkspace({
      root,
      remoteUrl: () => '',
      author: { name: 'b', email: 'b@example.test' },
    });
    letGoAfter(restarted);
    const resumed = await createTestEffects({ workspace: restarted }).runTests(input(check, 'runTests'), {
      signal,
    });
    expect(resumed.exitCode).toBe(0);
  });

  it('applies a change onto the base commit, whatever the baseline run wrote', async () => {
    const { ws, job, effects, input, dir } = await preparedJob();
    const vandal = {
      ...job,
      config: {
        ...job.config!,
        test: { command: 'echo TAMPERED > README.md; echo junk > dropped.txt', report: [] },
      },
    };
    const baseline = await effects.runBaseline(input(vandal, 'runBaseline'), { signal });
    expect(fs.readFileSync(path.join(dir, 'README.md'), 'utf8')).toBe('TAMPERED\n');
    const changed = withChanges(job, baseline, { 'src/extra.js': 'exports.x = 1;\n' }, []);
    await ws.applyChanges(proposing(changed), { signal });
    expect(fs.readFileSync(path.join(dir, 'README.md'), 'utf8')).toBe('# sample\n');
    expect(fs.existsSync(path.join(dir, 'dropped.txt'))).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'src/extra.js'), 'utf8')).toBe('exports.x = 1;\n');
  });

  it('calls a command that cannot run broken on the baseline, quoting its output without colour', async () => {
    const { job, effects, input } = await preparedJob();
    const missing = {
      ...job,
      config: {
        ...job.config!,
        install: null,
        test: { command: "printf '\\033[31mred\\033[0m\\n'; no-such-runner", report: [] },
      },
    };
    const run = await effects.runBaseline(input(missing, 'runBaseline'), { signal });
    expect(run).toMatchObject({ ran: false, exitCode: 127, broken: { reason: 'test-command-broken' } });
    expect(run.outputTail).toContain('red');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the ESC byte is what must be absent.
    expect(run.outputTail).not.toMatch(/\u001b|\[31m|\[0m/);
  });

  it('stops on a baseline it cannot read, naming the runner; a run it cannot read is unreadable, never passed', async () => {
    const { job, effects, input } = await preparedJob({
      'package.json': JSON.stringify({ name: 'sample', scripts: { test: 'node check.js' } }),
      'check.js': "console.log('checked 3 durations: all good');\n",
    });
    const opaque = { ...job, config: { ...job.config!, install: null } };
    const baseline = await effects.runBaseline(input(opaque, 'runBaseline'), { signal });
    expect(baseline).toMatchObject({
      ran: true,
      exitCode: 0,
      totals: { total: 0 },
      broken: {
        reason: 'tests-unreadable',
        message:
          'the tests ran and exited 0, but booty read no test result from them: the command starts `node check.js` (the `test` script), whose output booty cannot read',
      },
    });
    // Had the job gone on: the run exited 0 and named no failure, so no attempt can change it.
    const after = await effects.runTests(input({ ...opaque, baseline: { ...baseline, at: 0 } }, 'runTests'), {
      signal,
    });
    expect(after).toMatchObject({ verdict: 'unknown', passed: false, failureClass: 'unreadable' });
    expect(after.reasons.map((r) => r.code)).toEqual(['no-test-passed']);
  });

  it('with gate: exit-code, takes a run it cannot read on its exit status, as weak evidence', async () => {
    const { job, effects, input } = await preparedJob({}, { gate: 'exit-code' });
    const opaque = {
      ...job,
      config: { ...job.config!, install: null, test: { command: 'echo all good', report: [] } },
    };
    const baseline = await effects.runBaseline(input(opaque, 'runBaseline'), { signal });
    expect(baseline).toMatchObject({ ran: true, broken: null, totals: { total: 0 } });
    const after = await effects.runTests(input({ ...opaque, baseline: { ...baseline, at: 0 } }, 'runTests'), {
      signal,
    });
    expect(after).toMatchObject({ verdict: 'pass', passed: true, evidence: 'exit-code' });
    expect(after.reasons.map((r) => r.code)).toEqual(['no-test-passed']);
    const failing = {
      ...opaque,
      config: { ...opaque.config, test: { command: 'echo broken; exit 1', report: [] } },
    };
    const red = await effects.runTests(input({ ...failing, baseline: { ...baseline, at: 0 } }, 'runTests'), {
      signal,
    });
    expect(red).toMatchObject({ verdict: 'unknown', passed: false });
    expect(red.evidence).toBeUndefined();
  });

  it('keeps the gate a job started with: a baseline from before quality commands skips them, one with a record runs them', async () => {
    const { job, effects, input } = await preparedJob(
      {},
      { quality: { commands: ['echo "src/a.js:1: no-var"; exit 1'] } },
    );
    const baseline = await effects.runBaseline(input(job, 'runBaseline'), { signal });
    expect(baseline.quality?.map((q) => q.verdict)).toEqual(['fail']);
    const change = { 'test/sum.test.js': "require('node:test')('sums', () => {});\n" };
    const { quality: _, ...older } = baseline;
    const legacyJob = withChanges(job, older, change, ['test/sum.test.js']);
    const old = await effects.runTests(input(legacyJob, 'runTests'), { signal });
    expect(old).toMatchObject({ verdict: 'pass', passed: true });
    expect(old.quality).toBeUndefined();

    // The same run against the baseline's quality record is compared, and the finding is an old one.
    const gated = await effects.runTests(
      input(withChanges(job, baseline, change, ['test/sum.test.js']), 'runTests'),
      { signal },
    );
    expect(gated).toMatchObject({ verdict: 'pass', passed: true });
    expect(gated.quality?.map((q) => [q.verdict, q.reason])).toEqual([
      ['pass', 'already failed on the base commit; the change adds no finding'],
    ]);
  });

  it("keeps the clone's .git read-only for the tests, so nothing they write there runs later outside the sandbox", async () => {
    const { job, effects, input, dir } = await preparedJob();
    const sneaky = {
      ...job,
      config: {
        ...job.config!,
        install: null,
        test: {
          command: 'echo x > .git/hooks/pre-commit; echo y > .git/config.evil; node --test',
          report: [],
        },
      },
    };
    const run = await effects.runBaseline(input(sneaky, 'runBaseline'), { signal });
    expect(run.sandbox).toBe('bwrap');
    expect(run.outputTail).toMatch(/Read-only file system/);
    expect(fs.existsSync(path.join(dir, '.git/hooks/pre-commit'))).toBe(false);
    expect(fs.existsSync(path.join(dir, '.git/config.evil'))).toBe(false);
  });
});
