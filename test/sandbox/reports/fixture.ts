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
} as const;

export const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');

/** The id and status of each case, the shape most assertions compare. */
export const statuses = (cases: { id: string; status: string }[]) => cases.map((c) => [c.id, c.status]);
