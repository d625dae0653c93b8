import type { TestCase, TestStatus } from '../../events/effect-results.js';
import { LINE_BREAK } from '../../text-scan.js';
import { type CaseBatch, mergeById, repoPath, uniqueIds } from './case-list.js';
import { failureMessage } from './case-message.js';
import { vitestFailHeader } from './vitest-fail-line.js';

// What vitest, jest, node:test (spec) and mocha print for people, read when no report was written.
// Each format's tree of results is read first (duplicates there are distinct tests); its failure
// summary is then folded in by id (a summary repeats tests the tree already showed).

const join = (...parts: (string | null)[]) => parts.filter(Boolean).join(' > ');
// Each regex reading a run of spaces starts only where the run does (`(?<!\s)`): from every space of
// a long run, it would read the run again.
const DURATION = /(?<!\s)\s+\d+(?:\.\d+)?\s?m?s$/;
const ARROW = /(?<!\s)\s+>\s+/;

const testCase = (
  id: string,
  file: string | null,
  name: string,
  status: TestStatus,
  message: string | null = null,
) => ({ id, file, name, status, durationMs: null, message }) satisfies TestCase;

/**
 * The names of the suites a test sits in, outermost first, from a stack ordered by indent: those
 * indented less than the test, up to about ANCESTOR_CHARS in all. Output can open thousands of
 * suites without closing them; naming every one in every test's id made ids longer than the output
 * they came from, and the work quadratic in it.
 */
const ANCESTOR_CHARS = 1_000;
function ancestors(stack: { indent: number; name: string }[], indent: number): string[] {
  const names: string[] = [];
  let size = 0;
  for (const s of stack) {
    if (s.indent >= indent || size >= ANCESTOR_CHARS) break;
    names.push(s.name);
    size += s.name.length + 3;
  }
  return names;
}

/** Lines after `start` up to (not including) the first that `stop` matches. */
function blockAfter(lines: string[], start: number, stop: RegExp): string {
  const out: string[] = [];
  for (let i = start + 1; i < lines.length && !stop.test(lines[i]!); i++) out.push(lines[i]!);
  return out.join('\n');
}

/** vitest: `✓ file > suite > title 3ms` (verbose) and ` FAIL  file > suite > title` headers. */
export function vitestText(lines: string[], cwd: string): CaseBatch {
  const MARK: Record<string, TestStatus> = { '✓': 'passed', '×': 'failed', '↓': 'skipped', '□': 'skipped' };
  const tree: TestCase[] = [];
  const failures: TestCase[] = [];
  const loadErrors: CaseBatch['loadErrors'] = [];
  lines.forEach((line, i) => {
    const row = /^\s*([✓×↓□]) (\S+\.\w+) > (.+)$/.exec(line);
    if (row) {
      const titles = row[3]!.replace(DURATION, '').split(' > ');
      tree.push(testCase(join(row[2]!, ...titles), row[2]!, titles.at(-1)!, MARK[row[1]!]!));
      return;
    }
    // Two spaces after FAIL: jest's file headers have one.
    const fail = vitestFailHeader(line);
    if (!fail) return;
    const message = failureMessage(blockAfter(lines, i, /^\s*⎯|^\s*FAIL {2}/), cwd);
    if (!fail.title) {
      loadErrors.push({ file: fail.file, message: message ?? 'failed to load' });
      return;
    }
    const titles = fail.title.split(ARROW);
    failures.push(testCase(join(fail.file, ...titles), fail.file, titles.at(-1)!, 'failed', message));
  });
  return { cases: mergeById(uniqueIds(tree), failures), loadErrors };
}

/** jest: `PASS|FAIL file` headers, the verbose tree (✓ ✕ ○ ✎ under suite headers), `● a › b` failures. */
export function jestText(lines: string[], cwd: string): CaseBatch {
  const tree: TestCase[] = [];
  const failures: TestCase[] = [];
  const loadErrors: CaseBatch['loadErrors'] = [];
  let file: string | null = null;
  let stack: { indent: number; name: string }[] = [];
  const bulletEnd = /^ {2}● |^(PASS|FAIL) |^Test Suites:/;
  lines.forEach((line, i) => {
    const header = /^(FAIL|PASS) (\S+)/.exec(line);
    if (header) {
      file = header[2]!;
      stack = [];
      return;
    }
    if (!file) return;
    const bullet = /^ {2}● (.+)$/.exec(line);
    if (bullet) {
      const title = bullet[1]!.trim();
      if (title === 'Console') return;
      const message = failureMessage(blockAfter(lines, i, bulletEnd), cwd);
      if (title === 'Test suite failed to run')
        loadErrors.push({ file, message: message ?? 'failed to run' });
      else {
        const titles = title.split(' › ');
        failures.push(testCase(join(file, ...titles), file, titles.at(-1)!, 'failed', message));
      }
      return;
    }
    const row = /^( +)(✓|✕|○ skipped|✎ todo|○) (.+?)(?: \(\d+(?:\.\d+)? m?s\))?$/.exec(line);
    const indent = /^( +)\S/.exec(line)?.[1]?.length;
    if (indent === undefined) return;
    stack = stack.filter((s) => s.indent < indent);
    if (row) {
      const status: TestStatus = row[2] === '✓' ? 'passed' : row[2] === '✕' ? 'failed' : 'skipped';
      tree.push(testCase(join(file, ...ancestors(stack, indent), row[3]!), file, row[3]!, status));
    } else {
      stack.push({ indent, name: line.trim() }); // a suite header, or noise that the next header pops
    }
  });
  return { cases: mergeById(uniqueIds(tree), failures), loadErrors };
}

/** node:test spec: `▶ suite`, `✔ title`, `✖ title`, `﹣ title # SKIP`; files only in `failing tests:`. */
export function nodeSpecText(lines: string[], cwd: string): CaseBatch {
  const summary = lines.findIndex((l) => /^✖ failing tests:\s*$/.test(l));
  const tree = summary >= 0 ? lines.slice(0, summary) : lines;
  const suites: { indent: number; name: string }[] = [];
  const leaves: { around: string; name: string; status: TestStatus }[] = [];
  const loadErrors: CaseBatch['loadErrors'] = [];
  // The suites around the last test (at `aroundIndent`), kept while no suite opens or closes: its
  // siblings share them.
  let aroundIndent = -1;
  let around = '';
  for (const line of tree) {
    // No line break may stand in a row: with one, the regex would read to it from every ` # SKIP`.
    const m = LINE_BREAK.test(line)
      ? null
      : /^( *)([▶✖✔﹣]) (.+?)(?: \([\d.]+m?s\))?(?: # (SKIP|TODO)\b.*)?$/.exec(line);
    if (!m) continue;
    const [, pad, mark, name, directive] = m;
    const indent = pad!.length;
    while (suites.length && suites.at(-1)!.indent > indent) {
      suites.pop();
      aroundIndent = -1;
    }
    if (mark === '▶') {
      suites.push({ indent, name: name! });
      aroundIndent = -1;
      continue;
    }
    const top = suites.at(-1);
    if (top && top.indent === indent && top.name === name) {
      suites.pop(); // a suite's closing line
      aroundIndent = -1;
      continue;
    }
    if (indent === 0 && mark === '✖' && name!.startsWith('/')) {
      loadErrors.push({ file: repoPath(name!, cwd), message: 'test file failed' });
      continue;
    }
    const status: TestStatus = directive
      ? 'skipped'
      : mark === '✔'
        ? 'passed'
        : mark === '✖'
          ? 'failed'
          : 'skipped';
    // Suites are kept in order of indent: those around this test are the first ones.
    if (aroundIndent !== indent) {
      aroundIndent = indent;
      around = join(...ancestors(suites, indent));
    }
    leaves.push({ around, name: name!, status });
  }
  const files: string[] = [];
  for (const line of summary >= 0 ? lines.slice(summary + 1) : []) {
    const at = /^test at (.+?):\d+:\d+$/.exec(line);
    if (at) files.push(repoPath(at[1]!, cwd));
  }
  const failed = leaves.filter((l) => l.status === 'failed').length;
  // The summary lists failing tests in tree order; file-level failures are among them.
  const unloaded = new Set(loadErrors.map((e) => e.file));
  const testFiles = files.filter((f) => !unloaded.has(f));
  const zip = testFiles.length === failed;
  let nthFailed = 0;
  const cases = leaves.map((l) => {
    const file = zip && l.status === 'failed' ? testFiles[nthFailed++]! : null;
    return testCase(join(file, l.around, l.name), file, l.name, l.status);
  });
  return { cases: uniqueIds(cases), loadErrors };
}

/** mocha: a file that throws while loading stops the run before any reporter prints. */
export function mochaText(lines: string[], cwd: string): CaseBatch {
  const start = lines.findIndex((l) => /^\s*Exception during run: /.test(l));
  if (start < 0) return { cases: [], loadErrors: [] };
  const rest = lines.slice(start);
  const own = rest
    .map((l) => /^- (\/\S+)$/.exec(l)?.[1] ?? /\((\/[^():]+):\d+:\d+\)$/.exec(l)?.[1])
    .find((f): f is string => Boolean(f) && !f!.includes('/node_modules/'));
  const message = failureMessage(rest.join('\n'), cwd) ?? 'exception during run';
  return { cases: [], loadErrors: [{ file: own ? repoPath(own, cwd) : 'unknown', message }] };
}
