// A source file with its strings, comments and regex literals blanked, so brackets and calls can
// be read from the code alone, and its string literals kept by position, so a test's title can be
// read where its call starts. Lexers only: enough of each language to know what is code, not a
// parser. Unterminated literals end at the end of the file (or line, where the language says so).

export type CodeLang = 'js' | 'py' | 'go' | 'rs';

export interface Literal {
  /** The text between the quotes, escapes undone; `\u0000` where a template interpolates. */
  value: string;
  /** A JS template literal (backticks). */
  template: boolean;
}

export interface Masked {
  /** The source, the same length, with every string, comment and regex body blanked (newlines kept). */
  code: string;
  /** String literals by the index of their opening quote. */
  strings: Map<number, Literal>;
}

/** Marks a part of a title that is only known when the test runs (a template's `${}`, `%s` in each). */
export const WILDCARD = '\u0000';

const JS_REGEX_BEFORE = new Set('(,=:[!&|?{};+-*%<>~^'.split(''));
const JS_REGEX_AFTER_WORD = new Set([
  'return',
  'typeof',
  'case',
  'do',
  'else',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'yield',
  'await',
]);

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0' };

export function maskSource(text: string, lang: CodeLang): Masked {
  const out = text.split('');
  const strings = new Map<number, Literal>();
  const blank = (from: number, to: number) => {
    for (let k = from; k < to && k < out.length; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  /** Reads a quoted literal from its opening quote; returns the index after its closing quote. */
  const quoted = (
    start: number,
    open: number,
    close: string,
    opts: { escapes: boolean; multiline: boolean },
  ) => {
    let k = open;
    let value = '';
    while (k < text.length) {
      const ch = text[k]!;
      if (opts.escapes && ch === '\\' && k + 1 < text.length) {
        const next = text[k + 1]!;
        value += ESCAPES[next] ?? next;
        k += 2;
        continue;
      }
      if (text.startsWith(close, k)) {
        strings.set(start, { value, template: false });
        blank(open, k);
        return k + close.length;
      }
      if (ch === '\n' && !opts.multiline) break;
      value += ch;
      k++;
    }
    strings.set(start, { value, template: false });
    blank(open, k);
    return k;
  };

  if (lang === 'js') maskJs(text, strings, blank, quoted);
  else if (lang === 'py') maskPy(text, blank, quoted);
  else maskGoOrRust(text, lang, blank, quoted);
  return { code: out.join(''), strings };
}

type Blank = (from: number, to: number) => void;
type Quoted = (
  start: number,
  open: number,
  close: string,
  opts: { escapes: boolean; multiline: boolean },
) => number;

function lineEnd(text: string, i: number): number {
  const n = text.indexOf('\n', i);
  return n < 0 ? text.length : n;
}

function maskJs(text: string, strings: Map<number, Literal>, blank: Blank, quoted: Quoted) {
  // Each open template expression (`${`) and the braces opened inside it, innermost last.
  const depths: number[] = [];
  // The backtick each open template started at, to resume it after its `${}`.
  const templates: number[] = [];
  let last = ''; // the last significant character of code
  let word = ''; // the last word of code, for `return /re/`
  let i = 0;
  /** A template literal from its backtick to the end of the literal or the start of a `${`. */
  const template = (start: number, from: number): number => {
    let k = from;
    let value = strings.get(start)?.value ?? '';
    while (k < text.length) {
      const ch = text[k]!;
      if (ch === '\\' && k + 1 < text.length) {
        value += ESCAPES[text[k + 1]!] ?? text[k + 1]!;
        k += 2;
        continue;
      }
      if (ch === '`') {
        strings.set(start, { value, template: true });
        blank(from, k);
        templates.pop();
        return k + 1;
      }
      if (ch === '$' && text[k + 1] === '{') {
        strings.set(start, { value: value + WILDCARD, template: true });
        blank(from, k);
        depths.push(0);
        return k + 2;
      }
      value += ch;
      k++;
    }
    strings.set(start, { value, template: true });
    blank(from, k);
    return k;
  };
  while (i < text.length) {
    const ch = text[i]!;
    const next = text[i + 1];
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '/' && next === '/') {
      const end = lineEnd(text, i);
      blank(i, end);
      i = end;
      continue;
    }
    if (ch === '/' && next === '*') {
      const close = text.indexOf('*/', i + 2);
      const end = close < 0 ? text.length : close + 2;
      blank(i, end);
      i = end;
      continue;
    }
    if (ch === '"' || ch === "'") {
      i = quoted(i, i + 1, ch, { escapes: true, multiline: false });
      last = ch;
      word = '';
      continue;
    }
    if (ch === '`') {
      templates.push(i);
      i = template(i, i + 1);
      last = '`';
      word = '';
      continue;
    }
    if (ch === '/' && (last === '' || JS_REGEX_BEFORE.has(last) || JS_REGEX_AFTER_WORD.has(word))) {
      i = regex(text, i, blank);
      last = '/';
      word = '';
      continue;
    }
    if (ch === '{' && depths.length) depths[depths.length - 1]!++;
    if (ch === '}' && depths.length) {
      if (depths.at(-1) === 0) {
        // The end of a `${}`: back into its template literal.
        depths.pop();
        const start = templates.at(-1)!;
        i = template(start, i + 1);
        last = '`';
        word = '';
        continue;
      }
      depths[depths.length - 1]!--;
    }
    if (/[\w$]/.test(ch)) {
      let k = i;
      while (k < text.length && /[\w$]/.test(text[k]!)) k++;
      word = text.slice(i, k);
      last = text[k - 1]!;
      i = k;
      continue;
    }
    last = ch;
    word = '';
    i++;
  }
}

/** A regex literal from its opening slash: its body is blanked, its flags kept. */
function regex(text: string, start: number, blank: Blank): number {
  let k = start + 1;
  let inClass = false;
  while (k < text.length && text[k] !== '\n') {
    const ch = text[k]!;
    if (ch === '/' && !inClass) break;
    if (ch === '[') inClass = true;
    else if (ch === ']') inClass = false;
    k += ch === '\\' ? 2 : 1;
  }
  blank(start + 1, k);
  return k + 1;
}

function maskPy(text: string, blank: Blank, quoted: Quoted) {
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '#') {
      const end = lineEnd(text, i);
      blank(i, end);
      i = end;
      continue;
    }
    // A string with its prefix (r, b, f, u and their pairs): the prefix is code, the rest is not.
    const prefix = /^(?:[rRbBuUfF]{1,2})?(?:'''|"""|'|")/.exec(text.slice(i, i + 5));
    if (prefix && (i === 0 || !/[\w]/.test(text[i - 1]!))) {
      const quote = prefix[0].replace(/^[rRbBuUfF]+/, '');
      const open = i + prefix[0].length;
      const start = open - quote.length;
      i = quoted(start, open, quote, { escapes: true, multiline: quote.length === 3 });
      continue;
    }
    i++;
  }
}

function maskGoOrRust(text: string, lang: 'go' | 'rs', blank: Blank, quoted: Quoted) {
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    const next = text[i + 1];
    if (ch === '/' && next === '/') {
      const end = lineEnd(text, i);
      blank(i, end);
      i = end;
      continue;
    }
    if (ch === '/' && next === '*') {
      // Rust's block comments nest; go's do not.
      let depth = 1;
      let k = i + 2;
      while (k < text.length && depth > 0) {
        const step = text.startsWith('*/', k) ? -1 : lang === 'rs' && text.startsWith('/*', k) ? 1 : 0;
        depth += step;
        k += step === 0 ? 1 : 2;
      }
      blank(i, k);
      i = k;
      continue;
    }
    if (lang === 'go' && ch === '`') {
      i = quoted(i, i + 1, '`', { escapes: false, multiline: true });
      continue;
    }
    if (lang === 'rs' && !/[\w]/.test(text[i - 1] ?? '')) {
      const raw = /^b?r(#*)"/.exec(text.slice(i, i + 260));
      if (raw) {
        const open = i + raw[0].length;
        i = quoted(open - 1, open, `"${raw[1]}`, { escapes: false, multiline: true });
        continue;
      }
      if (ch === 'b' && next === '"') {
        i = quoted(i + 1, i + 2, '"', { escapes: true, multiline: true });
        continue;
      }
    }
    if (ch === '"') {
      i = quoted(i, i + 1, '"', { escapes: true, multiline: lang === 'rs' });
      continue;
    }
    if (ch === "'") {
      // A rune or char literal; in rust, `'a` with no closing quote is a lifetime.
      const literal =
        /^'(?:\\(?:u\{[0-9a-fA-F]+\}|x[0-9a-fA-F]{2}|[0-7]{3}|.)|[^\\'\n][\uDC00-\uDFFF]?)'/.exec(
          text.slice(i, i + 16),
        );
      if (literal) {
        blank(i + 1, i + literal[0].length - 1);
        i += literal[0].length;
        continue;
      }
    }
    i++;
  }
}

/** The index of the bracket that closes the one at `open`, in masked code; the end when none does. */
export function closingBracket(code: string, open: number): number {
  const pairs: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
  const stack: string[] = [];
  for (let k = open; k < code.length; k++) {
    const ch = code[k]!;
    if (ch in pairs) stack.push(pairs[ch]!);
    else if (ch === ')' || ch === ']' || ch === '}') {
      // A stray closer of another kind: skip it rather than lose the whole nesting.
      if (stack.at(-1) !== ch) continue;
      stack.pop();
      if (stack.length === 0) return k;
    }
  }
  return code.length - 1;
}

/** 1-based line numbers by character index. */
export function lineIndex(text: string): (index: number) => number {
  const starts = [0];
  for (let k = 0; k < text.length; k++) if (text[k] === '\n') starts.push(k + 1);
  return (index: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}
