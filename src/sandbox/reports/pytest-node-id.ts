// Where a pytest node id ends in a printed line: `tests/a.py::TestX::test_y[1 h]`. As the regex
// `\S+?\.py(?:::[^\s[]+)*(?:\[.*?\])?` this read is exponential in the `::` of a line (a test that
// prints `a.py::x::x::…` stalls booty), and quadratic in its `.py`s and `[`s. Read here in one pass,
// with the regex's own choices: the first `.py` that works, then the whole `::` path, then the
// shortest parameters.

import { isSpace } from '../../text-scan.js';

const LINE_BREAKS = '\n\r\u2028\u2029';

/** The end of the run of `[^\s[]` characters from `from`. */
function pathEnd(line: string, from: number): number {
  let i = from;
  while (i < line.length && line[i] !== '[' && !isSpace(line.charCodeAt(i))) i++;
  return i;
}

/**
 * Where the node id that starts at `start` ends, the first end the regex would reach that
 * `accepts`; -1 when none does. `accepts` may take an end only at a space or the end of the line
 * (each caller's pattern goes on with a space or ends there).
 */
export function pytestNodeIdEnd(line: string, start: number, accepts: (end: number) => boolean): number {
  if (line.indexOf('.py', start + 1) < 0) return -1;
  const space = line.slice(start).search(/\s/);
  const token = space < 0 ? line.length : start + space;
  // A `[` whose parameters were read to a line break (or the end) without an accepted `]`: any later
  // `[` before that break fails alike, so it is not read again.
  let failedBefore = -1;
  const parameters = (open: number): number => {
    if (open < failedBefore) return -1;
    for (let i = open + 1; i < line.length; i++) {
      if (LINE_BREAKS.includes(line[i]!)) {
        failedBefore = i;
        return -1;
      }
      if (line[i] === ']' && accepts(i + 1)) return i + 1;
    }
    failedBefore = line.length;
    return -1;
  };
  // Candidates in one run share its end: it is read once.
  let runFrom = -1;
  let runTo = -1;
  const pathEndFrom = (from: number) => {
    if (from < runFrom || from > runTo) {
      runFrom = from;
      runTo = pathEnd(line, from);
    }
    return runTo;
  };
  const tryEnd = (end: number): number => {
    if (line[end] === '[') {
      const closed = parameters(end);
      if (closed >= 0) return closed;
    }
    return accepts(end) ? end : -1;
  };
  for (
    let dot = line.indexOf('.py', start + 1);
    dot >= 0 && dot + 3 <= token;
    dot = line.indexOf('.py', dot + 1)
  ) {
    const file = dot + 3;
    // `::` and a path: only its whole length can be followed by a space or a `[`.
    if (line.startsWith('::', file)) {
      const end = pathEndFrom(file + 2);
      if (end > file + 2) {
        const found = tryEnd(end);
        if (found >= 0) return found;
      }
    }
    const found = tryEnd(file);
    if (found >= 0) return found;
  }
  return -1;
}
