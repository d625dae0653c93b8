import type { TestCase, TestRun, TestTotals } from '../events/effect-results.js';
import { isTestFile } from '../workspace/test-files.js';
import { isForeignFrame } from './foreign-frame.js';

// A run's failures as a maintainer reads them: the failing tests by id, each with the runner's
// message and the test's own stack frames, and files kept apart from tests. A runner's entry for a
// whole file (node:test's TAP names a subtest after its file; a file that did not load) is a file,
// not a test: it is dropped when tests of that file are listed, and shown as a file otherwise.

type Run = Pick<TestRun, 'cases' | 'loadErrors' | 'failingTests' | 'newFailures' | 'addedTestsFailing'> &
  Partial<Pick<TestRun, 'baselineFailures' | 'reasons'>>;

export interface FailedTest {
  id: string;
  message: string | null;
  /** False for a test the change needed to see passing that did not run, or was skipped. */
  failed: boolean;
}

export interface FailedFile {
  file: string;
  message: string | null;
  /** The file did not load, so none of its tests ran. */
  didNotLoad: boolean;
}

export interface Failures {
  /** New failures and the change's own failing tests first; every failing test when there are none. */
  tests: FailedTest[];
  files: FailedFile[];
  /** Failing tests left out above because they already failed before the change. */
  alreadyFailing: number;
}

const DID_NOT_LOAD = ' (did not load)';
const stripScheme = (p: string) => p.replace(/^file:\/\//, '').replace(/^\.\//, '');

/** A name that is a path to a file, not a test's title: no spaces, an extension, a folder or a test file's shape. */
export function looksLikeFile(name: string): boolean {
  const p = stripScheme(name);
  return !/\s/.test(p) && /\.[A-Za-z0-9]{1,5}$/.test(p) && (p.includes('/') || isTestFile(p));
}

const sameFile = (a: string, b: string) => {
  const [x, y] = [stripScheme(a), stripScheme(b)];
  return x === y || x.endsWith(`/${y}`) || y.endsWith(`/${x}`);
};

/** A case that stands for a whole file: named after it, with no other file of its own. */
const fileEntry = (c: Pick<TestCase, 'name' | 'file'>) =>
  looksLikeFile(c.name) && (c.file === null || sameFile(c.file, c.name));

const isFailure = (c: TestCase) => c.status === 'failed' || c.status === 'errored';

export function failuresOf(run: Run): Failures {
  const cases = new Map((run.cases ?? []).map((c) => [c.id, c]));
  const realFailing = (run.cases ?? []).filter((c) => isFailure(c) && !fileEntry(c));
  const fileOfId = (id: string): string | null => {
    if (id.endsWith(DID_NOT_LOAD)) return id.slice(0, -DID_NOT_LOAD.length);
    const c = cases.get(id);
    if (c) return fileEntry(c) ? c.name : null;
    return looksLikeFile(id) ? id : null;
  };
  // A failed install names itself in the list of failures: its reason says it in words.
  const said = new Set((run.reasons ?? []).map((r) => r.message));
  const first = [...new Set([...run.newFailures, ...run.addedTestsFailing])].filter((id) => !said.has(id));
  // A file that failed is news unless it failed before the change too.
  const before = new Set(run.baselineFailures ?? []);
  const newFiles = run.failingTests.filter((id) => !before.has(id) && fileOfId(id) !== null);
  const chosen = first.length ? [...new Set([...first, ...newFiles])] : run.failingTests;
  const tests: FailedTest[] = [];
  const files: FailedFile[] = [];
  for (const id of chosen) {
    const file = fileOfId(id);
    if (file === null) {
      const c = cases.get(id);
      tests.push({ id, message: c?.message ?? null, failed: c !== undefined && isFailure(c) });
      continue;
    }
    // The file's own tests are listed with their messages: the file says nothing more.
    const hasTests = realFailing.some(
      (c) => (c.file !== null && sameFile(c.file, file)) || c.id.startsWith(`${file} > `),
    );
    if (hasTests || files.some((f) => sameFile(f.file, file))) continue;
    const loadError = (run.loadErrors ?? []).find((e) => sameFile(e.file, file));
    // node:test reports a file whose process failed after its tests as if it had not loaded.
    const ran = (run.cases ?? []).some((c) => c.file !== null && sameFile(c.file, file) && !fileEntry(c));
    files.push({
      file,
      message: withoutNodeVerdict(loadError?.message ?? cases.get(id)?.message ?? null),
      didNotLoad: loadError !== undefined && !ran,
    });
  }
  const shown = new Set([...tests.map((t) => t.id), ...files.map((f) => f.file)]);
  const alreadyFailing = first.length
    ? run.failingTests.filter((id) => !shown.has(id) && fileOfId(id) === null).length
    : 0;
  return { tests, files, alreadyFailing };
}

/** node:test's closing words for a failed file, which the lines before it explain. */
function withoutNodeVerdict(message: string | null): string | null {
  const text = message?.replace(/(?:^|\n)'?test failed'?$/, '') ?? null;
  return text || null;
}

/**
 * The totals without the entries that stand for whole files. An entry with counts (uvu's) is
 * counted by its tests already, never as one itself.
 */
export function testTotals(run: Pick<TestRun, 'totals'> & Partial<Pick<TestRun, 'cases'>>): TestTotals {
  const entries = (run.cases ?? []).filter((c) => !c.counts && fileEntry(c));
  if (entries.length === 0) return run.totals;
  const t = { ...run.totals };
  for (const c of entries) {
    if (t[c.status] > 0 && t.total > 0) {
      t[c.status]--;
      t.total--;
    }
  }
  return t;
}

/** A failure's text with the test's own frames only, `file://./` paths shown plain, and capped. */
export function ownStack(text: string, maxLines = 30, maxChars = 2_000): string {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .replaceAll('file://./', '')
    .split('\n')
    .filter((line) => !isForeignFrame(line));
  let out = lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const kept = out.split('\n');
  if (kept.length > maxLines)
    out = `${kept.slice(0, maxLines).join('\n')}\n… (${kept.length - maxLines} more lines)`;
  return out.length > maxChars ? `${out.slice(0, maxChars - 1)}…` : out;
}

/** Raw TAP says nothing a reader needs that the cases do not already say. */
export const isTap = (text: string) =>
  // Indented by spaces within a line: `^\s*` would reread a run of blank lines from each of them.
  /^TAP version \d+$|^[^\S\n\r\u2028\u2029]*(?:# Subtest: |(?:not )?ok \d+ - )/m.test(text);
