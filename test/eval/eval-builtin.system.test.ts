import { describe, expect, it } from 'vitest';
import { builtinTasksFile } from '../../src/eval/builtin-tasks.js';
import { readTaskFile } from '../../src/eval/task-format.js';
import { tempDir } from '../support/job-harness.js';
import { runEvalCli } from './eval-cli.js';

// The whole built-in set, as the harness's acceptance: `booty eval --builtin --oracle` resolves
// every task with no false promotion, and `--null` resolves none. JavaScript tasks install their
// test runner from the npm registry; the rest run offline. The two runs go side by side (each in a
// directory of its own), so the file, the suite's longest, ends sooner. The wall time is printed
// for the record.

const tasks = readTaskFile(builtinTasksFile);

describe.concurrent('booty eval --builtin, every task', () => {
  it('--oracle resolves every task, 0 false promotions', async () => {
    const started = Date.now();
    const run = await runEvalCli([
      '--builtin',
      '--oracle',
      '--concurrency',
      '4',
      '--dir',
      tempDir('booty-eval-all-'),
    ]);
    console.log(
      `booty eval --builtin --oracle: ${tasks.length} tasks in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    expect(
      run.report!.results.filter((r) => !r.resolved).map((r) => [r.id, r.error, r.hidden.problem]),
    ).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.report!.totals).toMatchObject({
      tasks: tasks.length,
      resolved: tasks.length,
      falsePromotions: 0,
    });
  }, 1_800_000);

  it('--null resolves none', async () => {
    const started = Date.now();
    const run = await runEvalCli([
      '--builtin',
      '--null',
      '--concurrency',
      '4',
      '--dir',
      tempDir('booty-eval-all-null-'),
    ]);
    console.log(
      `booty eval --builtin --null: ${tasks.length} tasks in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    expect(run.report!.results.filter((r) => r.resolved).map((r) => r.id)).toEqual([]);
    expect(run.code).toBe(0);
  }, 1_800_000);
});
