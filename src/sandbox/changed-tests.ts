import path from 'node:path/posix';
import { diffLines } from 'diff';
import type { TestCase } from '../events/effect-results.js';
import { isTestFile } from '../workspace/test-files.js';
import { type CodeLang, WILDCARD } from './code-mask.js';
import { testDeclarations } from './test-declarations.js';

// Which tests a change added or modified, judged by test, not by file: a test declared in a new
// file, or one whose lines the change edited. An old failing test that shares a file with the
// change's edits is left alone, so it cannot block the job forever. A test is named by its whole
// path (class or describe blocks, module, parent test, then its own name) and matched against the
// runner's ids by that path: never by a bare function name, which other classes may share.

export interface TouchedTest {
  file: string;
  /** Outermost first, ending with the test's own name; WILDCARD where a title is built at run time. */
  path: string[];
}

function languageOf(file: string, reported: ReadonlySet<string>): CodeLang | null {
  if (file.endsWith('.rs')) return 'rs'; // unit tests live beside the code
  if (!isTestFile(file) && !reported.has(file)) return null;
  if (file.endsWith('.py')) return 'py';
  if (file.endsWith('.go')) return 'go';
  return /\.[cm]?[jt]sx?$/.test(file) ? 'js' : null;
}

/** A line that is only layout (blank, or closing brackets): a diff may place it on either side. */
const structural = (text: string | undefined) => !/[\w'"`]/.test(text ?? '');

/** Lines of `after` the change wrote, plus the line before each place where it removed some. */
function changedLines(before: string, after: string, lines: string[]): Set<number> {
  const changed = new Set<number>();
  let line = 1;
  for (const part of diffLines(before, after)) {
    const count = part.count ?? 0;
    if (part.added) {
      for (let i = 0; i < count; i++) if (!structural(lines[line + i - 1])) changed.add(line + i);
    } else if (part.removed) {
      const removed = part.value.split('\n').filter((l) => !structural(l));
      if (removed.length) changed.add(Math.max(1, line - 1));
    }
    if (!part.removed) line += count;
  }
  return changed;
}

/**
 * The tests a change declared or edited, file by file, against the base commit's contents. A line
 * belongs to the innermost test around it: an edit inside one subtest names that subtest alone.
 * `reported` are files the runner named tests in: test files wherever they sit (ava's `test.js`).
 */
export function touchedTests(
  changes: readonly { path: string; before: string | null; after: string | null }[],
  reported: ReadonlySet<string> = new Set(),
): TouchedTest[] {
  const out: TouchedTest[] = [];
  const add = (t: TouchedTest) => {
    const key = t.path.join('\0');
    if (!out.some((o) => o.file === t.file && o.path.join('\0') === key)) out.push(t);
  };
  for (const change of changes) {
    const lang = languageOf(change.path, reported);
    if (!lang || change.after === null) continue;
    const decls = testDeclarations(lang, change.after, change.path);
    if (change.before === null) {
      for (const d of decls) add({ file: change.path, path: d.path });
      continue;
    }
    const edited = changedLines(change.before, change.after, change.after.split('\n'));
    for (const line of [...edited].sort((a, b) => a - b)) {
      const around = decls.filter((d) => d.start <= line && line <= d.end);
      const innermost = around.sort((a, b) => a.end - a.start - (b.end - b.start))[0];
      if (innermost) add({ file: change.path, path: innermost.path });
    }
  }
  return out;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** One name of the path: literal, with WILDCARD matching any text. */
const segment = (s: string) => s.split(WILDCARD).map(escapeRegExp).join('.+?');

/** How each runner writes a test's path after its file (or package, or crate target) in an id. */
function pathPattern(t: TouchedTest, lang: CodeLang): RegExp {
  switch (lang) {
    case 'py':
      // tests/test_x.py::TestA::test_b[param]
      return new RegExp(`^${t.path.map(segment).join('::')}(?:\\[.*\\])?$`, 's');
    case 'go': {
      // calc > TestSub/a_b#01/inner: go writes a subtest's spaces as underscores, and numbers repeats.
      const [top, ...subs] = t.path.map((p) => segment(p.replaceAll(' ', '_')));
      return new RegExp(`^${[top, ...subs.map((s) => `${s}(?:#\\d+)?`)].join('/')}(?:/.+)?$`, 's');
    }
    case 'rs': {
      // src/lib.rs > units::tests::parses; a file whose module path is unknown starts with WILDCARD.
      return new RegExp(`^${t.path.map(segment).join('::')}$`, 's');
    }
    case 'js':
      // test/a.test.js > describe > title > subtest, and ` #2` for a second test of the same title.
      return new RegExp(`^${t.path.map(segment).join(' > ')}(?: > .+)?(?: #\\d+)?$`, 's');
  }
}

/** The part of a case's id after its file, package or crate target; null when the id has no such part. */
function idPath(c: Pick<TestCase, 'id' | 'file'>, t: TouchedTest, lang: CodeLang): string | null {
  const cut = (sep: string) => {
    const i = c.id.indexOf(sep);
    return i < 0 ? null : c.id.slice(i + sep.length);
  };
  if (lang === 'py') return cut('::');
  if (lang !== 'js') return cut(' > ');
  for (const file of [c.file, t.file])
    if (file && c.id.startsWith(`${file} > `)) return c.id.slice(file.length + 3);
  return c.id; // a runner that names no file in its ids (tape, ava over TAP)
}

/** The crate a rust file belongs to: everything before its `src/`. */
const crateOf = (file: string) => /^(.*?)(?:^|\/)src\//.exec(file)?.[1] ?? null;

function sameFile(c: Pick<TestCase, 'file'>, t: TouchedTest): boolean {
  if (c.file === null || c.file === t.file) return true;
  // go may name the package's directory; cargo names the crate target (src/lib.rs) of a unit test
  // declared in any module under src/.
  if (t.file.endsWith('.go') && !c.file.endsWith('.go'))
    return path.dirname(t.file) === path.normalize(c.file);
  return t.file.endsWith('.rs') && crateOf(t.file) !== null && crateOf(t.file) === crateOf(c.file);
}

/**
 * Whether a reported case is a test the change touched: the same file, and the whole path of names.
 * A subtest of a touched test is one too (its parent's result is its subtests'). An entry that
 * stands for a whole file (uvu) is every test in it.
 */
export function matchesTouched(c: Pick<TestCase, 'id' | 'file' | 'name' | 'scope'>, t: TouchedTest): boolean {
  if (c.scope === 'file') return c.file === t.file;
  const lang = languageOf(t.file, new Set([t.file]));
  if (!lang || !sameFile(c, t)) return false;
  const rest = idPath(c, t, lang);
  // An id with no structure to read: only a test declared at the top of its file can be it.
  if (rest === null) return t.path.length === 1 && c.name === t.path[0];
  return pathPattern(t, lang).test(rest);
}

/** A touched test as a person reads it: `tests/test_x.py::TestA::test_b`, `test/a.test.js > d > t`. */
export function touchedLabel(t: TouchedTest): string {
  const names = t.path.map((p) => p.replaceAll(WILDCARD, '…'));
  if (t.file.endsWith('.py')) return [t.file, ...names].join('::');
  if (t.file.endsWith('.go')) return `${t.file} > ${names.join('/')}`;
  if (t.file.endsWith('.rs')) return `${t.file} > ${names.join('::')}`;
  return [t.file, ...names].join(' > ');
}
