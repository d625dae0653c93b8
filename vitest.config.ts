import { configDefaults, defineConfig } from 'vitest/config';
import { CostlyFirst } from './test/support/costly-first.js';
import { ISOLATED_FILES } from './test/support/isolated-files.js';
import { useRunTempDir } from './test/support/run-temp-dir.js';

// Two tiers, named in the file name (docs/architecture.md, "Test tiers"):
// - unit (`*.unit.test.ts`): in-process only. test/support/unit-tier.ts makes starting a process,
//   opening a socket or a SQLite file fail the test. No build, no PostgreSQL: `npm run test:unit`.
// - system (every other `*.test.ts`): real processes, git, servers, SQLite files and PostgreSQL.
//   Its files share their workers' modules (isolate: false): a process and an import of src/ per
//   file were a quarter of the suite's CPU. The few that mock modules run isolated
//   (test/support/isolated-files.ts).
// - timed (`*.timed.test.ts`): system tests that hold a bound in time (/healthz within 100 ms, a
//   shutdown within 5 s, slow clients cut within 10 s). They run after the others, one file at a
//   time, so the bound measures booty and not two cores shared with three other test files.
// `npm test` runs both.

// Every temporary folder of the run, in one folder that goes when the run passes.
useRunTempDir();

const exclude = [...configDefaults.exclude, 'test/corpus/repos/**', 'test/corpus/.deps/**'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker per core minus one: a single worker on a 2-core machine. Most of
    // the system tier waits on child processes (git, test runners, servers), so three workers keep two
    // cores busy.
    maxWorkers: 3,
    // The costliest files start first, so the run does not end on one long file (costly-first.ts).
    sequence: { sequencer: CostlyFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.unit.test.ts'],
          exclude,
          setupFiles: ['test/support/unit-tier.ts'],
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'system',
          include: ['test/**/*.test.ts'],
          exclude: [...exclude, 'test/**/*.unit.test.ts', 'test/**/*.timed.test.ts', ...ISOLATED_FILES],
          // The compiled copy of src/ for child processes, and one PostgreSQL server for the run.
          globalSetup: ['test/global-setup.ts', 'test/support/postgres-global-setup.ts'],
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          // System files that mock modules: they neither start booty's compiled copy nor PostgreSQL.
          name: 'system-isolated',
          include: ISOLATED_FILES,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'timed',
          include: ['test/**/*.timed.test.ts'],
          exclude,
          globalSetup: ['test/global-setup.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
