import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { builtinTasksFile } from '../../src/eval/builtin-tasks.js';
import type { RunInfo } from '../../src/eval/eval-report.js';
import { readTaskFile } from '../../src/eval/task-format.js';
import { tempDir } from '../support/job-harness.js';
import { runEvalCli } from './eval-cli.js';
import { hiddenTestsOnBase } from './hidden-on-base.js';

// The built-in set, as the harness's acceptance. `booty eval --builtin --oracle` runs every task as
// a real job: each one resolved and promoted at the first attempt, no false promotion, every job's
// log verified by `booty replay`. `--null` resolves none: end to end on three Python tasks (no
// install), and for every other task its verdict, the hidden tests run on the base by the eval's
// judge with no job before them (the null model changes nothing, so its job adds nothing to the
// verdict; it would cost a whole baseline run a task). JavaScript tasks install their test runner
// from the npm registry; the rest run offline. The three go side by side; wall times are printed.

const tasks = readTaskFile(builtinTasksFile);
const NULL_END_TO_END = ['boltons-omd-equality', 'boltons-pluralize-x', 'cachetools-descriptor-none'];

const timed = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
  const started = Date.now();
  const result = await work();
  console.log(`${label} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
};

describe.concurrent('booty eval --builtin, every task', () => {
  it('--oracle resolves and promotes every task at the first attempt, 0 false promotions; every log replays', async () => {
    const dir = tempDir('booty-eval-all-');
    const run = await timed(`booty eval --builtin --oracle: ${tasks.length} tasks`, () =>
      runEvalCli(['--builtin', '--oracle', '--concurrency', '4', '--dir', dir]),
    );
    expect(
      run.report!.results.filter((r) => !r.resolved).map((r) => [r.id, r.error, r.hidden.problem]),
    ).toEqual([]);
    expect(run.err).not.toMatch(/BOOTY_E_/);
    expect(run.code).toBe(0);
    expect(run.report!.results.map((r) => [r.id, r.resolved, r.promoted, r.finalState, r.attempts])).toEqual(
      tasks
        .map((t) => t.id)
        .sort()
        .map((id) => [id, true, true, 'promoted', 1]),
    );
    expect(run.report!.totals).toMatchObject({
      tasks: tasks.length,
      resolved: tasks.length,
      falsePromotions: 0,
      missedPromotions: 0,
    });
    expect(run.report!.results.every((r) => r.costUsd > 0 && r.tokens.total > 0)).toBe(true);
    // Every job's log is kept: booty replay verifies each one from the run's database.
    const info = JSON.parse(fs.readFileSync(path.join(dir, 'report', 'run.json'), 'utf8')) as RunInfo;
    expect(info.db).toBe(path.join(dir, 'booty.db'));
    expect(info.tasks).toHaveLength(tasks.length);
    for (const t of info.tasks) {
      const out: string[] = [];
      const code = await main(['replay', t.jobId!, '--db', info.db, '--verify'], {
        out: (l) => out.push(l),
        err: (l) => out.push(l),
        env: {},
      });
      expect(code, out.join('\n')).toBe(0);
      expect(out.join('\n')).toContain(`eval/${t.id}#1  promoted  (verified`);
    }
  }, 1_800_000);

  it('--null resolves none, end to end: every FAIL_TO_PASS test fails on the base', async () => {
    const run = await timed(`booty eval --builtin --null: ${NULL_END_TO_END.length} tasks`, () =>
      runEvalCli([
        '--builtin',
        '--null',
        '--only',
        NULL_END_TO_END.join(','),
        '--dir',
        tempDir('booty-eval-null-'),
      ]),
    );
    expect(run.err).not.toMatch(/BOOTY_E_/);
    expect(run.code).toBe(0);
    expect(run.report!.results.map((r) => r.id)).toEqual(NULL_END_TO_END);
    for (const r of run.report!.results) {
      expect(r).toMatchObject({
        resolved: false,
        promoted: false,
        pr: null,
        finalState: 'failed',
        reason: 'no-changes',
        error: null,
      });
      expect(r.hidden.problem).toBeNull();
      expect(Object.values(r.hidden.failToPass).every((s) => s !== 'passed')).toBe(true);
      expect(Object.values(r.hidden.passToPass).every((s) => s === 'passed')).toBe(true);
    }
    expect(run.report!.totals.resolved).toBe(0);
  }, 600_000);

  it("every other task's hidden tests fail on its base: FAIL_TO_PASS fails, PASS_TO_PASS passes", async () => {
    const rest = tasks.filter((t) => !NULL_END_TO_END.includes(t.id));
    const runs = await timed(`the hidden tests of ${rest.length} tasks on their base`, () =>
      hiddenTestsOnBase(rest, tempDir('booty-eval-base-'), 2),
    );
    expect(
      rest.map((t) => {
        const run = runs.get(t.id)!;
        return [
          t.id,
          run.problem,
          run.resolved,
          Object.values(run.failToPass).some((s) => s === 'passed'),
          Object.entries(run.passToPass).filter(([, s]) => s !== 'passed'),
        ];
      }),
    ).toEqual(rest.map((t) => [t.id, null, false, false, []]));
  }, 1_800_000);
});
