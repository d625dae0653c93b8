import path from 'node:path';
import type { LoadError, TestCase, TestStatus, TestTotals } from '../../events/effect-results.js';

// What every report parser returns, and the few rules all of them share.

export interface CaseBatch {
  cases: TestCase[];
  loadErrors: LoadError[];
}

export const emptyBatch = (): CaseBatch => ({ cases: [], loadErrors: [] });

/** A report file that is not what its format says: read the text instead, and say so. */
export class ReportParseError extends Error {}

/** A path as the repository names it: relative to the work tree when it lies inside it. */
export function repoPath(file: string, cwd: string): string {
  const plain = file.startsWith('file://') ? decodeURI(file.slice('file://'.length)) : file;
  if (!path.isAbsolute(plain)) return plain.replace(/^\.\//, '');
  const rel = path.relative(cwd, plain);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : plain;
}

/** Two tests with one title are two tests: the first keeps the id, later ones get ` #2`, ` #3`. */
export function uniqueIds(cases: TestCase[]): TestCase[] {
  const seen = new Map<string, number>();
  return cases.map((c) => {
    const n = (seen.get(c.id) ?? 0) + 1;
    seen.set(c.id, n);
    return n === 1 ? c : { ...c, id: `${c.id} #${n}` };
  });
}

const WEIGHT: Record<TestStatus, number> = { skipped: 0, passed: 1, failed: 2, errored: 3 };

/** The same test seen twice (a summary repeating the tree, pytest's teardown error): the worse wins. */
export function mergeSightings(first: TestCase, later: TestCase): TestCase {
  const status = WEIGHT[later.status] > WEIGHT[first.status] ? later.status : first.status;
  const message = [first.message, later.message].filter(Boolean).join('\n\n') || null;
  return { ...first, file: first.file ?? later.file, status, message: status === 'passed' ? null : message };
}

/** Adds `more` to `base`, folding sightings of a test `base` already has into it. */
export function mergeById(base: TestCase[], more: TestCase[]): TestCase[] {
  const out = [...base];
  const index = new Map(out.map((c, i) => [c.id, i]));
  for (const c of more) {
    const i = index.get(c.id);
    if (i === undefined) {
      index.set(c.id, out.length);
      out.push(c);
    } else {
      out[i] = mergeSightings(out[i]!, c);
    }
  }
  return out;
}

export function totalsOf(cases: TestCase[]): TestTotals {
  const totals: TestTotals = { total: 0, passed: 0, failed: 0, errored: 0, skipped: 0 };
  // A file-level entry (uvu) counts each of its tests, not itself; a failing test that is also
  // named on its own (uvu's FAIL blocks) is already among its file's counts.
  const counted = new Set(cases.filter((c) => c.scope === 'file' && c.file).map((c) => c.file));
  for (const c of cases) {
    if (c.counts) {
      totals.passed += c.counts.passed;
      totals.failed += c.counts.failed;
      totals.skipped += c.counts.skipped;
      totals.total += c.counts.passed + c.counts.failed + c.counts.skipped;
    } else if (!(c.file && counted.has(c.file))) {
      totals[c.status]++;
      totals.total++;
    }
  }
  return totals;
}
