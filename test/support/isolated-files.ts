// System test files that mock modules (vi.mock): each needs a module registry of its own, so they
// run isolated, one process per file. Every other system file shares its worker's modules
// (vitest.config.ts); a file that mocks a module another file imported first would see the real
// one. test/support/isolated-files.unit.test.ts holds this list to every vi.mock in the tier.

export const ISOLATED_FILES = ['test/main/compose-loading.test.ts', 'test/store/postgres-loading.test.ts'];
