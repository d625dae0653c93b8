import { readFileSync } from 'node:fs';
import path from 'node:path';

// Reports and outputs captured from real runs of each runner on small sample projects in
// /tmp/reports-lab (see test/fixtures/reports). The paths inside them are the lab's, so each
// test reads them with the lab directory as the work tree.

export const FIXTURES = path.join(import.meta.dirname, '../../fixtures/reports');

export const LAB = {
  pytest: '/tmp/reports-lab/py',
  vitest: '/tmp/reports-lab/js/vt',
  jest: '/tmp/reports-lab/js/jt',
  mocha: '/tmp/reports-lab/js/mt',
  node: '/tmp/reports-lab/nt',
  go: '/tmp/reports-lab/go/calc',
  // Captured on this machine in /tmp/gatejs-try (uvu 0.5.6, ava 7.0.0, tape 5.10.2, tap 21.8.0,
  // jasmine 7.0.0, @playwright/test 1.65.1, bun 1.4.5, deno 2.9.6, RSpec 3.12, minitest 5.15,
  // PHPUnit 9.6.7, CMake 3.25's ctest, Maven 3.8.7 with Surefire 3.2.5 and JUnit 5.10).
  uvu: '/tmp/gatejs-try/uvu',
  ava: '/tmp/gatejs-try/ava',
  tape: '/tmp/gatejs-try/tape',
  nodeTap: '/tmp/gatejs-try/ntap',
  jasmine: '/tmp/gatejs-try/jas',
  playwright: '/tmp/gatejs-try/pw',
  bun: '/tmp/gatejs-try/bun',
  deno: '/tmp/gatejs-try/deno',
  rspec: '/tmp/gatejs-try/rspec',
  minitest: '/tmp/gatejs-try/mt',
  phpunit: '/tmp/gatejs-try/php',
  ctest: '/tmp/gatejs-try/ct/build',
  maven: '/tmp/gatejs-try/mvn',
} as const;

export const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');

/** The id and status of each case, the shape most assertions compare. */
export const statuses = (cases: { id: string; status: string }[]) => cases.map((c) => [c.id, c.status]);
