import path from 'node:path/posix';
import { diffLines } from 'diff';
import type { TestCase } from '../events/effect-results.js';
import { isTestFile } from '../workspace/test-files.js';

// Which tests a change added or modified, judged by test, not by file: a test declared in a new
// file, or one whose lines the change edited. An old failing test that shares a file with the
// change's edits is left alone, so it cannot block the job forever.

export interface TouchedTest {
  file: string;
  /** As TestCase.name: the function's name, or the JS test's own title. */
  name: string;
}

interface Declaration {
  name: string | null;
  line: number;
}

const JS_TEST_OPEN =
  /(?:^|[^.\w$])(?:it|test)(?:\.(?:only|skip|todo|concurrent|sequential|fails))*\s*\(\s*(['"`])/g;
const JS_BOUNDARY = /(?:^|[^.\w$])(?:it|test|describe|suite|context)(?:\.\w+)*\s*\(/;
const PY_TEST = /^\s*(?:async\s+)?def\s+(test\w*)\s*\(/;
const PY_BOUNDARY = /^\s*(?:async\s+)?(?:def|class)\s/;
const GO_TEST = /^func\s+((?:Test|Fuzz|Example)\w*)\s*\(/;
const GO_BOUNDARY = /^func\s/;
const RS_FN = /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?fn\s+(\w+)/;
const RS_TEST_ATTR = /^\s*#\[(?:[\w:]+::)?test\b/;

type Lang = 'js' | 'py' | 'go' | 'rs';

function languageOf(file: string): Lang | null {
  if (file.endsWith('.rs')) return 'rs'; // unit tests live beside the code
  if (!isTestFile(file)) return null;
  if (file.endsWith('.py')) return 'py';
  if (file.endsWith('.go')) return 'go';
  return 'js';
}

/** Test declarations (with their names) and the other lines that end a test's span. */
function declarations(lang: Lang, lines: string[]): Declaration[] {
  const out: Declaration[] = [];
  lines.forEach((text, i) => {
    const line = i + 1;
    if (lang === 'js') {
      const test = jsTest(text);
      if (test && !(test[0] === '`' && test[1].includes('${'))) out.push({ name: unquote(test[1]), line });
      else if (JS_BOUNDARY.test(text)) out.push({ name: null, line });
    } else if (lang === 'py') {
      const test = PY_TEST.exec(text);
      if (test) out.push({ name: test[1]!, line });
      else if (PY_BOUNDARY.test(text)) out.push({ name: null, line });
    } else if (lang === 'go') {
      const test = GO_TEST.exec(text);
      if (test) out.push({ name: test[1]!, line });
      else if (GO_BOUNDARY.test(text)) out.push({ name: null, line });
    } else {
      const fn = RS_FN.exec(text);
      if (!fn) return;
      const attrs = lines.slice(Math.max(0, i - 3), i);
      const attr = attrs.findLastIndex((l) => RS_TEST_ATTR.test(l));
      out.push({ name: attr >= 0 ? fn[1]! : null, line: attr >= 0 ? i - attrs.length + attr + 1 : line });
    }
  });
  return out;
}

const unquote = (title: string) => title.replace(/\\(.)/g, '$1');

const isBreak = (c: string | undefined) => c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029';

/**
 * `it('title'`: the quote and the title, as `((?:\\.|(?!\1).)*)\1` after JS_TEST_OPEN reads them: a
 * backslash escapes what follows where that leads to a closing quote, and is itself a character
 * where it does not. As a regex that choice is exponential in a line's backslashes; here where a
 * title from each place would end is worked out once, from the line's end.
 */
function jsTest(line: string): [quote: string, title: string] | null {
  const ends = new Map<string, Int32Array>();
  JS_TEST_OPEN.lastIndex = 0;
  for (let m = JS_TEST_OPEN.exec(line); m; m = JS_TEST_OPEN.exec(line)) {
    JS_TEST_OPEN.lastIndex = m.index + 1;
    const quote = m[1]!;
    if (!ends.has(quote)) ends.set(quote, titleEnds(line, quote));
    const from = m.index + m[0].length;
    const end = ends.get(quote)![from]!;
    if (end >= 0) return [quote, line.slice(from, end)];
  }
  return null;
}

/** For each place in the line, where a title starting there ends (its closing quote), or -1. */
function titleEnds(line: string, quote: string): Int32Array {
  const n = line.length;
  const end = new Int32Array(n + 2).fill(-1);
  for (let p = n - 1; p >= 0; p--) {
    const c = line[p];
    if (c === quote) end[p] = p;
    else if (isBreak(c)) end[p] = -1;
    else if (c === '\\') {
      const escaped = p + 1 < n && !isBreak(line[p + 1]) ? end[p + 2]! : -1;
      end[p] = escaped >= 0 ? escaped : end[p + 1]!;
    } else end[p] = end[p + 1]!;
  }
  return end;
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

/** The tests a change declared or edited, file by file, against the base commit's contents. */
export function touchedTests(
  changes: readonly { path: string; before: string | null; after: string | null }[],
): TouchedTest[] {
  const out: TouchedTest[] = [];
  for (const change of changes) {
    const lang = languageOf(change.path);
    if (!lang || change.after === null) continue;
    const lines = change.after.split('\n');
    const decls = declarations(lang, lines);
    const edited = change.before === null ? null : changedLines(change.before, change.after, lines);
    decls.forEach((d, i) => {
      if (d.name === null) return;
      const end = (decls[i + 1]?.line ?? lines.length + 1) - 1;
      let touched = edited === null;
      for (let l = d.line; !touched && l <= end; l++) touched = edited!.has(l);
      if (touched && !out.some((t) => t.file === change.path && t.name === d.name)) {
        out.push({ file: change.path, name: d.name });
      }
    });
  }
  return out;
}

/** Whether a reported case is the declaration the change touched. */
export function matchesTouched(c: Pick<TestCase, 'file' | 'name'>, t: TouchedTest): boolean {
  if (c.name !== t.name) return false;
  if (c.file === null || c.file === t.file) return true;
  // go may name the package's directory; cargo names the crate target (src/lib.rs) of a unit test
  // declared in any module under src/.
  if (t.file.endsWith('.go') && !c.file.endsWith('.go'))
    return path.dirname(t.file) === path.normalize(c.file);
  return t.file.endsWith('.rs') && t.file.startsWith('src/') && c.file.startsWith('src/');
}
