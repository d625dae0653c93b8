// Test files that mock modules (vi.mock): each needs a module registry of its own, so they run
// isolated, one process per file. Every other file, unit or system, shares its worker's modules
// (vitest.config.ts); a file that mocks a module another file imported first would see the real
// one. test/support/isolated-files.unit.test.ts holds this list to every vi.mock in the tests.

export const ISOLATED_FILES = [
  'test/forges/github/clients-loading.test.ts',
  'test/main/compose-loading.test.ts',
  'test/store/postgres-loading.test.ts',
];
