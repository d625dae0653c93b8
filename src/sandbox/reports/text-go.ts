import type { TestCase, TestStatus } from '../../events/effect-results.js';
import { type CaseBatch, uniqueIds } from './case-list.js';
import { failureMessage } from './case-message.js';
import { GoPackages } from './go-packages.js';

// go test's text: `--- FAIL: TestName (0.00s)` (and PASS/SKIP with -v) belong to the package named
// by the next `ok  <pkg>` or `FAIL\t<pkg>` line. Build failures print `FAIL\t<pkg> [build failed]`.

const STATUS: Record<string, TestStatus> = { PASS: 'passed', FAIL: 'failed', SKIP: 'skipped' };

export function goText(lines: string[], cwd: string): CaseBatch {
  const packages = new GoPackages(cwd);
  const cases: TestCase[] = [];
  const loadErrors: CaseBatch['loadErrors'] = [];
  const builds = new Map<string, string[]>();
  let pending: { name: string; status: TestStatus }[] = [];
  let since: string[] = [];
  let block: string[] | null = null;
  for (const line of lines) {
    const header = /^# (\S+)/.exec(line);
    if (header) {
      block = [];
      builds.set(header[1]!, block);
      continue;
    }
    const test = /^\s*--- (PASS|FAIL|SKIP): (\S+) \(/.exec(line);
    if (test) {
      block = null;
      pending.push({ name: test[2]!, status: STATUS[test[1]!]! });
      continue;
    }
    // go separates the verdict from the package with a tab: `ok  \tpkg\t0.1s`, `FAIL\tpkg [build failed]`.
    if (block && /^(=== |\s*--- |PASS|FAIL|ok |\{)/.test(line)) block = null;
    const pkg = /^(?:FAIL|ok) *\t(\S+)(?: \[(build|setup) failed\])?/.exec(line);
    if (!pkg) {
      if (block && line) block.push(line);
      since.push(line);
      continue;
    }
    block = null;
    const name = pkg[1]!;
    const where = packages.dir(name) ?? name;
    if (pkg[2]) {
      const message = failureMessage((builds.get(name) ?? []).join('\n'), cwd) ?? `${name} did not build`;
      loadErrors.push({ file: where, message });
    }
    // A parent fails with its subtests: report only the leaves.
    const leaves = leafTests(pending);
    for (const t of leaves) {
      const fn = t.name.split('/')[0]!;
      const file = packages.fileOf(name, fn);
      cases.push({
        id: `${name} > ${t.name}`,
        file,
        name: fn,
        status: t.status,
        durationMs: null,
        message: null,
      });
    }
    // A package that failed without naming a failing test (a panic in TestMain, a timeout).
    if (line.startsWith('FAIL') && !pkg[2] && !leaves.some((t) => t.status === 'failed')) {
      loadErrors.push({ file: where, message: failureMessage(since.join('\n'), cwd) ?? `${name} failed` });
    }
    pending = [];
    since = [];
  }
  return { cases: uniqueIds(cases), loadErrors };
}

/** The tests no other one names as its parent (`a` of `a/b`): one look each in the sorted names, not
 * a comparison with every other test. */
function leafTests<T extends { name: string }>(tests: T[]): T[] {
  const names = tests.map((t) => t.name).sort();
  const hasChild = (name: string) => {
    const prefix = `${name}/`;
    let lo = 0;
    let hi = names.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (names[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    return lo < names.length && names[lo]!.startsWith(prefix);
  };
  return tests.filter((t) => !hasChild(t.name));
}
