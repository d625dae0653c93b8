import path from 'node:path';
import type { TestCase } from '../../events/effect-results.js';
import { stripAnsi } from './ansi.js';
import type { CaseBatch } from './case-list.js';
import { failureMessage } from './case-message.js';

// uvu has no machine-readable reporter. Its CLI prints, per test file, the file's name (relative
// to the directory it was given), then a line per suite: the suite's name, a mark per test (• or
// ✘) and `(passed / run)`. Failures follow their suite's line as blocks that open with
// `FAIL <suite> "<test>"`. The run ends with `Total:`, `Passed:` and `Skipped:`.
//
//   lite.js
//   • • • • •   (5 / 5)
//    Strings  • ✘   (1 / 2)
//
//     FAIL  Strings  "trims"
//       Expected values to be strictly equal:  (is)
//
// So a file is the finest unit whose passing tests can be told: each file becomes one entry of
// scope `file` with its counts. A failing test is named in its block, and becomes a case of its
// own beside its file's entry. Skipped tests are counted in the run's `Skipped:` line only, so
// they are a file's when one file ran. Read line by line with plain string tests: no pattern here
// can backtrack over what a test printed.

/** A line's `(passed / run)` ending, or null. */
function suiteResult(line: string): { head: string; passed: number; run: number } | null {
  const trimmed = line.trimEnd();
  if (!trimmed.endsWith(')')) return null;
  const open = trimmed.lastIndexOf('(');
  if (open < 0) return null;
  const m = /^\((\d+) \/ (\d+)\)$/.exec(trimmed.slice(open));
  if (!m) return null;
  const passed = Number(m[1]);
  const run = Number(m[2]);
  if (passed > run) return null;
  return { head: trimmed.slice(0, open), passed, run };
}

/** The suite's name before its marks: ` name  • ✘ ` gives `name`; no name gives ''. */
function suiteName(head: string): string {
  let end = head.length;
  for (;;) {
    const before = head.slice(0, end).trimEnd();
    if (before.endsWith('•') || before.endsWith('✘')) end = before.length - 1;
    else return before.trim();
  }
}

/** A name uvu printed for a file: no indent, a file extension, not one of its own lines. */
function isFileLine(line: string): boolean {
  if (line === '' || line !== line.trimStart() || line.includes('  ')) return false;
  if (line.startsWith('Total:') || line.startsWith('FAIL')) return false;
  const dot = line.lastIndexOf('.');
  return dot > 0 && dot < line.length - 1 && /^[A-Za-z0-9]+$/.test(line.slice(dot + 1));
}

/** `FAIL  <suite>  "<name>"` with the suite known from the line before: the test's name. */
function failedName(line: string, suite: string): string | null {
  const text = line.trim();
  if (!text.startsWith('FAIL ')) return null;
  let rest = text.slice('FAIL '.length).trimStart();
  if (suite && rest.startsWith(suite)) rest = rest.slice(suite.length).trimStart();
  if (!rest.startsWith('"') || !rest.endsWith('"') || rest.length < 2) return null;
  return rest.slice(1, -1);
}

/**
 * `dir` is where uvu's file names are relative to (its `dir` argument, under its `--cwd`), as a
 * path relative to the work tree.
 */
export function parseUvu(output: string, cwd: string, dir: string): CaseBatch {
  const lines = stripAnsi(output).replace(/\r\n?/g, '\n').split('\n');
  const files = new Map<string, TestCase & { counts: NonNullable<TestCase['counts']> }>();
  const failures: TestCase[] = [];
  const fileOf = (name: string) => path.posix.normalize(path.posix.join(dir, name)).replace(/^\.\//, '');
  let file: string | null = null;
  let suite = '';
  let skipped = 0;
  let previousBlank = true;
  let failing: { at: number; name: string } | null = null;

  const closeFailure = (end: number) => {
    if (!failing || file === null) return;
    const block = lines.slice(failing.at + 1, end).join('\n');
    const id = [file, suite, failing.name].filter(Boolean).join(' > ');
    failures.push({
      id,
      file,
      name: failing.name,
      status: 'failed',
      durationMs: null,
      message: failureMessage(block, cwd),
    });
    failing = null;
  };

  lines.forEach((raw, i) => {
    const line = raw.trimEnd();
    const result = suiteResult(line);
    if (result) {
      closeFailure(i);
      suite = suiteName(result.head);
      if (file !== null) {
        const entry = files.get(file)!;
        entry.counts.passed += result.passed;
        entry.counts.failed += result.run - result.passed;
        if (entry.counts.failed > 0) entry.status = 'failed';
      }
    } else if (line.trim().startsWith('FAIL ') && file !== null && failedName(line, suite) !== null) {
      closeFailure(i);
      failing = { at: i, name: failedName(line, suite)! };
    } else if (line.trimStart().startsWith('Total:')) {
      closeFailure(i);
      file = null;
    } else if (line.trimStart().startsWith('Skipped:') && file === null) {
      const n = Number(line.trim().slice('Skipped:'.length).trim());
      if (Number.isInteger(n) && n > 0) skipped += n;
    } else if (previousBlank && isFileLine(line)) {
      closeFailure(i);
      file = fileOf(line);
      suite = '';
      if (!files.has(file)) {
        files.set(file, {
          id: file,
          file,
          name: path.posix.basename(file),
          status: 'passed',
          durationMs: null,
          message: null,
          scope: 'file',
          counts: { passed: 0, failed: 0, skipped: 0 },
        });
      }
    }
    previousBlank = line.trim() === '';
  });
  closeFailure(lines.length);

  if (files.size === 1 && skipped > 0) [...files.values()][0]!.counts.skipped += skipped;
  // A failing file's message: its failures' names, so the entry reads on its own.
  const entries = [...files.values()].map((f) => {
    if (f.status !== 'failed') return f;
    const names = failures.filter((c) => c.file === f.file).map((c) => c.name);
    return { ...f, message: names.length ? `failing: ${names.join(', ')}` : null };
  });
  return { cases: [...entries, ...failures], loadErrors: [] };
}

/** uvu's `dir` argument, joined to its `--cwd`: where its file names start. */
export function uvuDir(args: string[]): string {
  const VALUE = new Set(['-r', '--require', '-i', '--ignore', '-C', '--cwd']);
  let cwd = '.';
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-C' || a === '--cwd') cwd = args[i + 1] ?? '.';
    else if (a.startsWith('--cwd=')) cwd = a.slice('--cwd='.length);
    if (VALUE.has(a)) i++;
    else if (!a.startsWith('-')) positional.push(a);
  }
  return path.posix.normalize(path.posix.join(cwd, positional[0] ?? '.'));
}
