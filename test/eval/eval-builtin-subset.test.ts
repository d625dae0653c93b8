import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { RunInfo } from '../../src/eval/eval-report.js';
import { tempDir } from '../support/job-harness.js';
import { runEvalCli } from './eval-cli.js';

// The harness checks itself on a few built-in tasks (the whole set runs in
// eval-builtin.system.test.ts): the oracle, answering with each gold patch, resolves and promotes
// every one; the null model, answering with no change, resolves none. Python tasks: no install.

const SUBSET = ['boltons-omd-equality', 'boltons-pluralize-x', 'cachetools-descriptor-none'];

describe('booty eval --builtin on a subset', () => {
  it('--oracle resolves and promotes every task, with no false promotion', async () => {
    const dir = tempDir('booty-eval-oracle-');
    const run = await runEvalCli(['--builtin', '--oracle', '--only', SUBSET.join(','), '--dir', dir]);
    expect(run.err).not.toMatch(/BOOTY_E_/);
    expect(run.code).toBe(0);
    expect(run.report!.results.map((r) => [r.id, r.resolved, r.promoted, r.finalState, r.attempts])).toEqual(
      SUBSET.map((id) => [id, true, true, 'promoted', 1]),
    );
    expect(run.report!.totals).toMatchObject({
      tasks: 3,
      resolved: 3,
      falsePromotions: 0,
      missedPromotions: 0,
    });
    expect(run.report!.results.every((r) => r.costUsd > 0 && r.tokens.total > 0)).toBe(true);
    // Every job's log is kept: booty replay verifies each one from the run's database.
    const info = JSON.parse(fs.readFileSync(path.join(dir, 'report', 'run.json'), 'utf8')) as RunInfo;
    expect(info.db).toBe(path.join(dir, 'booty.db'));
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
  }, 300_000);

  it('--null resolves none: every FAIL_TO_PASS test fails on the base', async () => {
    const run = await runEvalCli([
      '--builtin',
      '--null',
      '--only',
      SUBSET.join(','),
      '--dir',
      tempDir('booty-eval-null-'),
    ]);
    expect(run.code).toBe(0);
    for (const r of run.report!.results) {
      expect(r).toMatchObject({
        resolved: false,
        promoted: false,
        pr: null,
        finalState: 'failed',
        reason: 'no-changes',
      });
      expect(Object.values(r.hidden.failToPass).every((s) => s !== 'passed')).toBe(true);
      expect(Object.values(r.hidden.passToPass).every((s) => s === 'passed')).toBe(true);
    }
    expect(run.report!.totals.resolved).toBe(0);
  }, 300_000);
});
