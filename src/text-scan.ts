// Scans of untrusted text (test output, model answers, comments) in one pass. A backtracking regex
// such as `A[\s\S]*B`, `A.+B` or `\s+$` retries its scan from every place it could start, which is
// quadratic in the length of the text: a test that prints one long line could stall booty for
// hours. These do the same work with each part of the text read a bounded number of times.

/** What a table of patterns asks of each entry: a RegExp is one, and so is each scan below. */
export interface TextTest {
  test(text: string): boolean;
}

/** The characters that end a line for `.`, `^` and `$` in a JavaScript regex. */
export const LINE_BREAK = /[\n\r\u2028\u2029]/;

const global = (re: RegExp) => new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);

/** Matches where any of the tests does: an alternation of scans. */
export const anyOf = (...tests: TextTest[]): TextTest => ({
  test: (text) => tests.some((t) => t.test(text)),
});

/** The first match of `re` at or after `from`, remembered while later searches start before it. */
function firstAfter(re: RegExp) {
  let searched = Number.POSITIVE_INFINITY;
  let found = -1;
  return {
    reset() {
      searched = Number.POSITIVE_INFINITY;
      found = -1;
    },
    at(text: string, from: number): number {
      // Still valid: none after an earlier start, or one found at or after this start.
      if (from < searched || (found >= 0 && found < from)) {
        re.lastIndex = from;
        found = re.exec(text)?.index ?? -1;
        searched = from;
      }
      return found;
    },
  };
}

/**
 * `first`, then `then` after it, as the regex `first[\s\S]{gap,within}then` would find them (or
 * `first.{gap,}then` with `sameLine`), for a yes or no. Each start of `first` is tried, and the search
 * for `then` is shared between them: linear where `first`'s own matches are.
 */
export function followedBy(
  first: RegExp,
  then: RegExp,
  options: { gap?: number; within?: number; sameLine?: boolean } = {},
): TextTest {
  const { gap = 0, within = Number.POSITIVE_INFINITY, sameLine = false } = options;
  const starts = global(first);
  const next = firstAfter(global(then));
  const lineEnd = firstAfter(global(LINE_BREAK));
  return {
    test(text) {
      next.reset();
      lineEnd.reset();
      starts.lastIndex = 0;
      for (let m = starts.exec(text); m; m = starts.exec(text)) {
        starts.lastIndex = m.index + 1;
        const end = m.index + m[0].length;
        const at = next.at(text, end + gap);
        if (at < 0) return false;
        if (at - end > within) continue;
        if (sameLine) {
          const brk = lineEnd.at(text, end);
          if (brk >= 0 && brk < at) continue;
        }
        return true;
      }
      return false;
    },
  };
}

/** The text without the run of `chars` at its end: `text.replace(/[chars]+$/, '')` in one pass. */
export function trimTrailing(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1]!)) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** Whether a character is one `\s` matches, by its code: a regex call per character costs more. */
export function isSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}
