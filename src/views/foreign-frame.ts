// A stack frame in node's internals or a dependency: `at Test.run (node:internal/…)`,
// `at … (…/node_modules/…)`, `at new Promise (<anonymous>)`, and TAP's frames without their `at`:
// `Test.run (node:internal/test_runner/test:796:25)`, `node:internal/test_runner/harness:255:12`.
// That is the regex, with F = (?:node:|internal\/|[^()\s]*node_modules\/),
//   ^\s*(?:at\s+(?:async\s+)?(?:[^()]*\()?(?:F|<anonymous>)[^()]*\)?
//         |(?:async\s+)?(?:[^()\s]+ \()?F[^()\s]*:\d+:\d+\)?)\s*$
// read here in a few passes over the line: the regex reread the rest of a line from each
// `node_modules/` in it. Each place a frame's location may start is tried.

const AT = /^at\s+/;
const ASYNC = /async\s+/y;
const CALLEE = /[^()\s]+ \(/y;
const PAREN = /[()]/g;
const SPACE_OR_PAREN = /[\s()]/g;
const MODULES = 'node_modules/';

const firstFrom = (re: RegExp, text: string, from: number) => {
  re.lastIndex = from;
  return re.exec(text)?.index ?? text.length;
};
const stickyEnd = (re: RegExp, text: string, from: number) => {
  re.lastIndex = from;
  return re.test(text) ? re.lastIndex : -1;
};

/** `at …`: the location after `at`, `async` or the first `(`, and no `(` after it, one `)` at most. */
function atFrame(s: string): boolean {
  const at = AT.exec(s);
  if (!at) return false;
  const afterAt = at[0].length;
  const afterAsync = stickyEnd(ASYNC, s, afterAt);
  const paren = firstFrom(PAREN, s, afterAt);
  const starts = [afterAt, afterAsync, s[paren] === '(' ? paren + 1 : -1].filter((q) => q >= 0);
  const lastOpen = s.lastIndexOf('(');
  const lastClose = s.lastIndexOf(')');
  const closeBefore = lastClose > 0 ? s.lastIndexOf(')', lastClose - 1) : -1;
  // What follows the location reads as `[^()]*\)?$`; the later the location ends, the likelier.
  const restFits = (end: number) =>
    lastOpen < end && (lastClose < end || (closeBefore < end && lastClose === s.length - 1));
  return starts.some((q) => {
    const token = firstFrom(SPACE_OR_PAREN, s, q);
    const modules = s.lastIndexOf(MODULES, token - MODULES.length);
    const end = Math.max(
      s.startsWith('node:', q) ? q + 5 : -1,
      s.startsWith('internal/', q) ? q + 9 : -1,
      s.startsWith('<anonymous>', q) ? q + 11 : -1,
      modules >= q ? modules + MODULES.length : -1,
    );
    return end >= 0 && restFits(end);
  });
}

/** TAP's `callee (location:1:2)` or `location:1:2`: one word from the location to `:line:col`. */
function bareFrame(s: string): boolean {
  const end = s.endsWith(')') ? s.length - 1 : s.length;
  const lineCol = /:\d+:\d+$/.exec(s.slice(0, end))?.index ?? -1;
  if (lineCol < 0) return false;
  const afterAsync = stickyEnd(ASYNC, s, 0);
  const starts = [0, afterAsync].filter((q) => q >= 0).flatMap((q) => [q, stickyEnd(CALLEE, s, q)]);
  return starts.some((q) => {
    if (q < 0 || firstFrom(SPACE_OR_PAREN, s, q) < end) return false;
    const modules = s.indexOf(MODULES, q);
    const earliest = Math.min(
      s.startsWith('node:', q) ? q + 5 : Number.POSITIVE_INFINITY,
      s.startsWith('internal/', q) ? q + 9 : Number.POSITIVE_INFINITY,
      modules >= 0 ? modules + MODULES.length : Number.POSITIVE_INFINITY,
    );
    return earliest <= lineCol;
  });
}

export function isForeignFrame(line: string): boolean {
  const s = line.trim();
  return atFrame(s) || bareFrame(s);
}
