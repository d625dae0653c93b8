import { type CodeLang, closingBracket, lineIndex, maskSource, WILDCARD } from './code-mask.js';

// Where each test is declared in a source file, and its whole name: the classes, describe blocks,
// modules or parent tests around it, then its own name, as the runners name it in their ids. A
// test spans its declaration: decorators and attributes, its call or function, its body.

export interface TestDeclaration {
  /** Outermost first, ending with the test's own name; WILDCARD where a title is built at run time. */
  path: string[];
  /** First and last line (1-based), decorators and attributes included. */
  start: number;
  end: number;
}

export function testDeclarations(lang: CodeLang, text: string, file: string): TestDeclaration[] {
  if (lang === 'py') return pythonTests(text);
  if (lang === 'js') return jsTests(text);
  if (lang === 'go') return goTests(text);
  return rustTests(text, file);
}

interface Block {
  title: string | null;
  test: boolean;
  from: number;
  to: number;
  /** Where the declaration starts for a person (an attribute above it): its first line. */
  line?: number;
}

/** Each test with the titles of the blocks around it, innermost last; untitled blocks add nothing. */
function nest(blocks: Block[], at: (index: number) => number, prefix: string[] = []): TestDeclaration[] {
  const sorted = [...blocks].sort((a, b) => a.from - b.from || b.to - a.to);
  const out: TestDeclaration[] = [];
  for (const b of sorted) {
    if (!b.test || b.title === null) continue;
    const around = sorted.filter((o) => o !== b && o.from <= b.from && o.to >= b.to && o.title !== null);
    out.push({
      path: [...prefix, ...around.map((o) => o.title!), b.title],
      start: b.line ?? at(b.from),
      end: at(b.to),
    });
  }
  return out;
}

const JS_SCOPE = new Set(['describe', 'context', 'suite', 'fdescribe', 'xdescribe', 'xcontext']);
const JS_CALL =
  /(?<![.\w$])(describe|context|suite|fdescribe|xdescribe|xcontext|it|test|specify|fit|xit|xtest)((?:\s*\.\s*\w+)*)\s*\(|(?<![.\w$])(?:t|st|tt|t\d)\.test\s*\(/g;
/** Modifiers whose first call is not the test: `it.each(table)(title, fn)`, `it.skipIf(cond)(title, fn)`. */
const JS_CURRIED = /\.\s*(?:each|for|skipIf|runIf)\b/;

/** A title's printf and `$name` placeholders (jest and vitest `each`) as wildcards. */
const eachTitle = (title: string) =>
  title.replace(/%%|%[sdifjoOpc#]|\$[\w.#]+/g, (m) => (m === '%%' ? '%' : WILDCARD));

function jsTests(text: string): TestDeclaration[] {
  const { code, strings } = maskSource(text, 'js');
  const blocks: Block[] = [];
  for (const m of code.matchAll(JS_CALL)) {
    let open = m.index + m[0].length - 1;
    let close = closingBracket(code, open);
    const curried = JS_CURRIED.test(m[2] ?? '');
    if (curried) {
      const k = skipSpace(code, close + 1);
      if (code[k] !== '(') continue;
      open = k;
      close = closingBracket(code, open);
    }
    const literal = strings.get(skipSpace(code, open + 1));
    const title = literal ? (curried ? eachTitle(literal.value) : literal.value) : WILDCARD;
    blocks.push({ title, test: !m[1] || !JS_SCOPE.has(m[1]), from: m.index, to: close });
  }
  return nest(blocks, lineIndex(text));
}

function skipSpace(code: string, k: number): number {
  while (k < code.length && /\s/.test(code[k]!)) k++;
  return k;
}

const GO_TEST = /^func\s+((?:Test|Fuzz|Example)\w*)\s*\(/gm;
const GO_RUN = /(?<![\w.])\w+\.Run\s*\(/g;

function goTests(text: string): TestDeclaration[] {
  const { code, strings } = maskSource(text, 'go');
  const tests: Block[] = [];
  for (const m of code.matchAll(GO_TEST)) {
    const params = closingBracket(code, m.index + m[0].length - 1);
    const body = code.indexOf('{', params);
    if (body < 0) continue;
    tests.push({ title: m[1]!, test: true, from: m.index, to: closingBracket(code, body) });
  }
  const subtests: Block[] = [];
  for (const m of code.matchAll(GO_RUN)) {
    const open = m.index + m[0].length - 1;
    // A subtest named at run time (`t.Run(tc.name, …)`): its lines count for the test around it.
    const name = strings.get(skipSpace(code, open + 1));
    if (!name || !tests.some((t) => t.from <= m.index && t.to >= m.index)) continue;
    subtests.push({ title: name.value, test: true, from: m.index, to: closingBracket(code, open) });
  }
  return nest([...tests, ...subtests], lineIndex(text));
}

const RS_MOD = /(?<![\w])mod\s+(\w+)\s*\{/g;
const RS_FN = /(?<![\w])fn\s+(\w+)/g;
const RS_TEST_ATTR = /^\s*#\[(?:[\w:]+::)?test\b/;

function rustTests(text: string, file: string): TestDeclaration[] {
  const { code } = maskSource(text, 'rs');
  const at = lineIndex(text);
  const lines = text.split('\n');
  const blocks: Block[] = [];
  for (const m of code.matchAll(RS_MOD)) {
    const open = m.index + m[0].length - 1;
    blocks.push({ title: m[1]!, test: false, from: m.index, to: closingBracket(code, open) });
  }
  for (const m of code.matchAll(RS_FN)) {
    const line = at(m.index);
    const above = lines.slice(Math.max(0, line - 4), line - 1);
    const attr = above.findLastIndex((l) => RS_TEST_ATTR.test(l));
    if (attr < 0) continue;
    const body = code.indexOf('{', m.index);
    const semicolon = code.indexOf(';', m.index);
    if (body < 0 || (semicolon >= 0 && semicolon < body)) continue;
    blocks.push({
      title: m[1]!,
      test: true,
      from: m.index,
      to: closingBracket(code, body),
      line: line - above.length + attr,
    });
  }
  return nest(blocks, at, rustModules(file) ?? [WILDCARD]);
}

/**
 * The module path a file's items live at, from where cargo finds them: `src/lib.rs` is the crate's
 * root, `src/a/b.rs` and `src/a/b/mod.rs` are `a::b`, an integration test file is its own crate.
 * null where the layout does not say (a `#[path]`, a helper module of the tests).
 */
export function rustModules(file: string): string[] | null {
  if (/(?:^|\/)src\/(?:lib|main)\.rs$|(?:^|\/)src\/bin\/[^/]+\.rs$/.test(file)) return [];
  if (/(?:^|\/)(?:tests|benches|examples)\/[^/]+\.rs$/.test(file)) return [];
  const m = /(?:^|\/)src\/(.+)\.rs$/.exec(file);
  if (!m) return null;
  const parts = m[1]!.split('/');
  if (parts.at(-1) === 'mod') parts.pop();
  return parts;
}

const PY_CLASS = /^\s*class\s+(\w+)/;
const PY_DEF = /^\s*(?:async\s+)?def\s+(\w+)\s*\(/;

interface PyScope {
  indent: number;
  kind: 'class' | 'def';
  name: string;
  start: number;
  test: boolean;
}

/** pytest's tests: `test*` functions at module level or in classes (nested classes too), never inside a function. */
function pythonTests(text: string): TestDeclaration[] {
  const { code } = maskSource(text, 'py');
  const lines = code.split('\n');
  const out: TestDeclaration[] = [];
  const stack: PyScope[] = [];
  let depth = 0; // open brackets: a line that starts inside them continues the one before
  let continued = false; // the line before ended with a backslash
  let lastCode = 0;
  let decorators: number | null = null;
  const close = (scope: PyScope) => {
    if (scope.test) {
      const path = [...stack.filter((s) => s.kind === 'class').map((s) => s.name), scope.name];
      out.push({ path, start: scope.start, end: Math.max(lastCode, scope.start) });
    }
  };
  lines.forEach((line, i) => {
    const n = i + 1;
    const starts = depth === 0 && !continued;
    for (const ch of line) {
      if (ch === '(' || ch === '[' || ch === '{') depth++;
      else if ((ch === ')' || ch === ']' || ch === '}') && depth > 0) depth--;
    }
    continued = /\\\s*$/.test(line);
    if (!starts || line.trim() === '') {
      if (line.trim() !== '') lastCode = n;
      return;
    }
    const indent = line.length - line.trimStart().length;
    while (stack.length && stack.at(-1)!.indent >= indent) {
      const scope = stack.pop()!;
      close(scope);
    }
    const cls = PY_CLASS.exec(line);
    const def = PY_DEF.exec(line);
    if (line.trimStart().startsWith('@')) decorators ??= n;
    else if (cls || def) {
      const inFunction = stack.some((s) => s.kind === 'def');
      stack.push({
        indent,
        kind: cls ? 'class' : 'def',
        name: (cls ?? def)![1]!,
        start: decorators ?? n,
        test: !cls && !inFunction && def![1]!.startsWith('test'),
      });
      decorators = null;
    } else decorators = null;
    lastCode = n;
  });
  while (stack.length) close(stack.pop()!);
  return out.sort((a, b) => a.start - b.start);
}
