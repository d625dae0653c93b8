import { isTestPath } from './file-relevance.js';
import { testCaseCount } from './test-case-count.js';

// The model may fix code or tests, but not make the tests pass by removing them. An answer that
// deletes a test file, drops test cases, or adds skip/only markers is sent back once for repair.

const SKIP_MARKERS =
  /\b(?:it|test|describe|suite|context|bench)\.(?:skip|todo|only|skipIf|runIf)\b|(?<![.\w])[xf](?:it|test|describe)\s*\(|@pytest\.mark\.(?:skip|skipif|xfail)\b|@unittest\.skip|\bpytest\.skip\s*\(|\bt\.Skip(?:Now|f)?\s*\(|#\[ignore\]|@Disabled\b|@Ignore\b/g;

const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;

export interface TestGuardInput {
  changes: { path: string; content: string }[];
  deletePaths: string[];
  /** Test files the job added earlier: they count as tests too. */
  addedTests: string[];
  /** The file's content before this answer: the job's latest version, else the base. */
  previous: (path: string) => Promise<string | null>;
}

/** Every way the answer removes or disables tests; empty when it does not. */
export async function testViolations(input: TestGuardInput): Promise<string[]> {
  const isTest = (p: string) => isTestPath(p) || input.addedTests.includes(p);
  const problems: string[] = [];
  for (const p of input.deletePaths) {
    if (isTest(p)) problems.push(`${p}: deletes a test file; fix the test or the code instead`);
  }
  for (const change of input.changes) {
    if (!isTest(change.path)) continue;
    const before = await input.previous(change.path);
    if (before === null) continue;
    const skipsAdded = count(change.content, SKIP_MARKERS) - count(before, SKIP_MARKERS);
    if (skipsAdded > 0)
      problems.push(
        `${change.path}: adds ${skipsAdded} skip/only/todo marker(s); tests must run, not be skipped`,
      );
    const casesRemoved = testCaseCount(before) - testCaseCount(change.content);
    if (casesRemoved > 0)
      problems.push(`${change.path}: removes ${casesRemoved} test case(s); keep every test and make it pass`);
  }
  return problems;
}
