import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, 'test/corpus/repos/**', 'test/corpus/.deps/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The compiled copy of src/ for child processes, and one PostgreSQL server for the run.
    globalSetup: ['test/global-setup.ts', 'test/support/postgres-global-setup.ts'],
    pool: 'forks',
    // Vitest's default is one worker per core minus one: a single worker on a 2-core machine. Most of
    // this suite waits on child processes (git, test runners, servers), so three workers keep two
    // cores busy.
    maxWorkers: 3,
  },
});
