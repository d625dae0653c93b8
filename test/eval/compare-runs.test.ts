import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { compareReports } from '../../src/eval/compare-runs.js';
import { evalReport, reportJson } from '../../src/eval/eval-report.js';
import { failedTask, type TaskResult } from '../../src/eval/task-result.js';
import { tempDir } from '../support/job-harness.js';

// `booty eval --compare A B`: task by task, what got worse first.

const result = (id: string, resolved: boolean, promoted: boolean): TaskResult => ({
  ...failedTask(id, [], ''),
  error: null,
  resolved,
  promoted,
  gate: promoted
    ? resolved
      ? 'promoted-resolved'
      : 'false-promotion'
    : resolved
      ? 'missed-promotion'
      : 'held-unresolved',
});

const a = evalReport('oracle', 'm', [
  result('t1', true, true),
  result('t2', false, false),
  result('t3', true, true),
  result('t4', false, false),
  result('t5', true, true),
]);
const b = evalReport('api', 'm', [
  result('t1', true, true),
  result('t2', true, true),
  result('t3', false, false),
  result('t4', false, true),
  result('t6', true, true),
]);

describe('booty eval --compare', () => {
  it('orders regressions (lost, or a new false promotion) first, then improvements, then tasks one run lacks', () => {
    expect(compareReports(a, b).map((r) => [r.id, r.change])).toEqual([
      ['t3', 'regression'],
      ['t4', 'regression'],
      ['t2', 'improvement'],
      ['t5', 'only-in-a'],
      ['t6', 'only-in-b'],
      ['t1', 'same'],
    ]);
  });

  it('reads two report folders and prints the table', async () => {
    const dirs = [tempDir('booty-cmp-a-'), tempDir('booty-cmp-b-')];
    fs.writeFileSync(path.join(dirs[0]!, 'results.json'), reportJson(a));
    fs.writeFileSync(path.join(dirs[1]!, 'results.json'), reportJson(b));
    const out: string[] = [];
    const code = await main(['eval', '--compare', dirs[0]!, dirs[1]!], {
      out: (t) => out.push(t),
      err: (t) => out.push(t),
      env: {},
    });
    expect(code).toBe(0);
    const text = out.join('\n');
    expect(text).toContain('2 regressions, 1 improvements');
    expect(text.split('\n').find((l) => l.startsWith('| t3 |'))).toBe(
      '| t3 | regression | resolved, promoted, resolved | unresolved, held, unresolved | $0.0000 | $0.0000 |',
    );
  });

  it('refuses a folder that holds no report, naming it', async () => {
    const err: string[] = [];
    const dir = tempDir('booty-cmp-none-');
    const code = await main(['eval', '--compare', dir, dir], {
      out: () => {},
      err: (t) => err.push(t),
      env: {},
    });
    expect(code).toBe(2);
    expect(err.join('')).toContain(`${path.join(dir, 'results.json')} is not a booty eval report`);
  });
});
