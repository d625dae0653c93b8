import { isSpace } from '../text-scan.js';

// The test cases in a test file, counted as the regex
//   /\b(?:it|test)(?:\.(?:only|skip|todo|concurrent|fails|each\s*\([\s\S]*?\)))*\s*\(\s*['"`]|\bdef\s+test_\w*|\bfunc\s+Test\w*\s*\(|@Test\b|#\[test\]|\bit\s+['"]/g
// counts them. Its `each(…)` part looks for the first `)` after which the rest matches, from every
// `it.each(` in the file, which is quadratic in them: where the file has an `.each(`, where a
// case's call ends is worked out once per place, from the end of the file.

const TEST_CASES =
  /\b(?:it|test)(?:\.(?:only|skip|todo|concurrent|fails|each\s*\([\s\S]*?\)))*\s*\(\s*['"`]|\bdef\s+test_\w*|\bfunc\s+Test\w*\s*\(|@Test\b|#\[test\]|\bit\s+['"]/g;

const MODIFIERS = ['only', 'skip', 'todo', 'concurrent', 'fails'];
const OTHER_CASES = [/\bdef\s+test_\w*/y, /\bfunc\s+Test\w*\s*\(/y, /@Test\b/y, /#\[test\]/y, /\bit\s+['"]/y];
const STARTS = /\b(?:it|test|def|func)|@Test|#\[test\]/g;
const CALLEE = /\b(?:it|test)/y;

/** For each place: where `(?:\.modifier)*\s*\(\s*['"`]` that starts there ends, or -1. */
function callEnds(text: string): Int32Array {
  const n = text.length;
  const space = new Int32Array(n + 1);
  const end = new Int32Array(n + 2).fill(-1);
  const goodClose = new Int32Array(n + 2).fill(-1);
  space[n] = n;
  for (let i = n; i >= 0; i--) {
    if (i < n) space[i] = isSpace(text.charCodeAt(i)) ? space[i + 1]! : i;
    let found = -1;
    if (text[i] === '.') {
      const word = MODIFIERS.find((w) => text.startsWith(w, i + 1));
      if (word) found = end[i + 1 + word.length]!;
      else if (text.startsWith('each', i + 1)) {
        const open = space[i + 5] ?? n;
        if (text[open] === '(') {
          const close = goodClose[open + 1]!;
          if (close >= 0) found = end[close + 1]!;
        }
      }
    }
    if (found < 0 && i < n) {
      const open = space[i]!;
      if (text[open] === '(') {
        const quote = space[open + 1] ?? n;
        if (quote < n && '\'"`'.includes(text[quote]!)) found = quote + 1;
      }
    }
    end[i] = found;
    if (i < n) goodClose[i] = text[i] === ')' && end[i + 1]! >= 0 ? i : goodClose[i + 1]!;
  }
  return end;
}

export function testCaseCount(text: string): number {
  if (!/\.each\s*\(/.test(text)) return text.match(TEST_CASES)?.length ?? 0;
  const ends = callEnds(text);
  let count = 0;
  STARTS.lastIndex = 0;
  for (let m = STARTS.exec(text); m; m = STARTS.exec(text)) {
    const at = m.index;
    let end = -1;
    CALLEE.lastIndex = at;
    const callee = CALLEE.exec(text);
    if (callee) end = ends[at + callee[0].length]!;
    for (const re of OTHER_CASES) {
      if (end >= 0) break;
      re.lastIndex = at;
      if (re.test(text)) end = re.lastIndex;
    }
    if (end >= 0) {
      count++;
      STARTS.lastIndex = end;
    } else STARTS.lastIndex = at + 1;
  }
  return count;
}
