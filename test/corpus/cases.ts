import { cargoCases } from './cases/cargo.js';
import { goCases } from './cases/go.js';
import { jestCases, mochaCases, nodeTestCases, vitestCases } from './cases/js.js';
import { pytestCases } from './cases/pytest.js';
import { runnerCases } from './cases/runners.js';

// Small real repositories (test/corpus/repos), a change for each, and what booty must conclude.
// Check them without booty: `node --import tsx test/corpus/check-corpus.ts [framework]`.
//
// Counts are test cases: a parametrized case or a go subtest is one (a go test with subtests is
// not), xfail / skip / ignore / pending count as skipped, and failed includes errored.
//
// What the runners print when there is nothing to run, which booty must read as "no tests yet",
// not as a broken command: pytest exits 5 ("no tests ran"), jest 1 ("No tests found, exiting with
// code 1"), vitest 1 ("No test files found, exiting with code 1"), mocha 1 ('Error: No test files
// found: "test"'); node --test exits 0 ("# tests 0"), go 0 ("?  example.com/slugs [no test files]"),
// cargo 0 ("running 0 tests"). The broken commands: exit 127 "not found" (pytesst, jest never
// installed, mocah, corpus-tool), npm's 1 ('Missing script: "tests"'), node --test's 1 ("Could not
// find '<path>'"), go's 2 ("go tset: unknown command"), cargo's 101 ("no such command: `tset`"),
// and pytest's 2 for a collection error ("Interrupted: 1 error during collection").
//
// Wall times from check-corpus (bubblewrap, 2 cores, one case at a time): install + test, summed
// over the framework's cases, baseline / after the change, then one typical run.
//   pytest     5.3s / 4.3s   0.5s a run (plugins load); pip install --user 0.6s
//   jest       3.2s / 3.9s   0.5-0.8s
//   vitest     4.7s / 4.6s   0.6-0.9s
//   mocha      1.6s / 1.5s   0.2-0.3s
//   node-test  0.9s / 0.9s   0.1s
//   cargo      2.8s / 1.8s   0.2-0.8s (a fresh target/ compiles in under a second; no dependencies)
//   go         3.1s / 4.2s   0.3s with -vet=off, 1-2s with vet on a fresh HOME's empty build cache
// The further runners, timed with two cases each (cases/runners.ts; each now has three):
//   uvu 0.8s / 0.8s, ava 2.9s / 2.2s, tape 0.7s / 0.7s, node-tap 13.6s / 19.3s (3-5s a run: tap
//   21 starts each file with its loaders), jasmine 1.5s / 1.4s, playwright 8.8s / 8.9s (4s a run),
//   bun 0.9s / 1.1s, deno 1.2s / 1.5s, phpunit 0.3s / 0.3s, rspec 0.7s / 0.9s, minitest 1.0s /
//   1.1s, ctest 4.6s / 4.9s (cmake configures and builds in the test command)
// All 75 cases: ~115s of commands one after another. corpus.test.ts took 113s for the first 51
// (installing vitest, jest and mocha) and 155s for all 75 (the runners installed), on 2 shared cores;
// 144s for all 87, each further runner with its code-only-change.
// tape and node-tap count assertions, not tests, so check-corpus checks only their exit.

export type Framework =
  | 'pytest'
  | 'jest'
  | 'vitest'
  | 'mocha'
  | 'node-test'
  | 'cargo'
  | 'go'
  | 'uvu'
  | 'ava'
  | 'tape'
  | 'node-tap'
  | 'jasmine'
  | 'playwright'
  | 'bun'
  | 'deno'
  | 'phpunit'
  | 'rspec'
  | 'minitest'
  | 'ctest';

export interface CorpusCase {
  framework: Framework;
  name: string;
  repo: string;
  /** Whole new contents by repository-relative path (null deletes): what the model's answer would be. */
  change: Record<string, string | null>;
  expect: {
    baseline: {
      broken: null | 'test-command-broken' | 'test-command-timeout';
      passed: number;
      failed: number;
      skipped: number;
      failing: string[];
    };
    /** null when the baseline is broken (no change is tested). */
    after: null | {
      verdict: 'pass' | 'fail' | 'unknown';
      passed: number;
      failed: number;
      skipped: number;
      failing: string[];
    };
  };
}

export const corpusCases: CorpusCase[] = [
  ...pytestCases,
  ...jestCases,
  ...vitestCases,
  ...mochaCases,
  ...nodeTestCases,
  ...cargoCases,
  ...goCases,
  ...runnerCases,
];
