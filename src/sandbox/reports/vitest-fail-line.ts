import { isSpace } from '../../text-scan.js';

// vitest's header for a failure, ` FAIL  test/a.test.ts > suite > title [ note ]`, read as the regex
// /^\s*FAIL {2}(\S+\.\w+)(?:\s+>\s+(.+?))?(?:\s+\[ .+ \])?\s*$/ reads it, with the same choices:
// the title is the shortest that leaves a note or only spaces after it. As a regex that read is
// cubic in a long header's spaces; here each character is read a few times.

const isBreak = (c: string | undefined) => c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029';

export function vitestFailHeader(line: string): { file: string; title: string | undefined } | null {
  const head = /^\s*FAIL {2}(\S+)/.exec(line);
  // The file runs to the next space: nothing after it may start otherwise.
  if (!head || !/^\S+\.\w+$/.test(head[1]!)) return null;
  const rest = line.slice(head[0].length);
  const n = rest.length;
  const end = rest.trimEnd().length;
  // A note closes the text: ` ]` before the trailing spaces, with no line break inside it.
  const closes = rest[end - 1] === ']' && rest[end - 2] === ' ';
  let lastBreak = -1;
  for (let i = 0; i < end - 2; i++) if (isBreak(rest[i])) lastBreak = i;
  const noteAt = (w: number) =>
    closes && rest[w] === '[' && rest[w + 1] === ' ' && end - 2 > w + 2 && lastBreak < w + 2;

  // From each place: where its run of spaces ends, the first place at or after it where only a
  // note or spaces follow (the title may end there), and the first line break.
  const spaceEnd = new Int32Array(n + 1);
  const tailAt = new Int32Array(n + 2);
  const breakAt = new Int32Array(n + 1);
  spaceEnd[n] = n;
  tailAt[n + 1] = n + 1;
  breakAt[n] = n;
  for (let i = n; i >= 0; i--) {
    if (i < n) {
      const space = isSpace(rest.charCodeAt(i));
      spaceEnd[i] = space ? spaceEnd[i + 1]! : i;
      breakAt[i] = isBreak(rest[i]) ? i : breakAt[i + 1]!;
    }
    const tail = i >= end || (i < n && isSpace(rest.charCodeAt(i)) && noteAt(spaceEnd[i]!));
    tailAt[i] = tail ? i : tailAt[i + 1]!;
  }

  // ` > title`: spaces, `>`, spaces (as many as leave a title), then the title.
  const arrow = spaceEnd[0]!;
  if (arrow > 0 && rest[arrow] === '>') {
    const from = arrow + 1;
    for (let s = spaceEnd[from]!; s > from; s--) {
      if (s >= n) continue;
      const stop = tailAt[s + 1]!;
      if (breakAt[s]! >= stop) return { file: head[1]!, title: rest.slice(s, stop) };
    }
  }
  return tailAt[0] === 0 ? { file: head[1]!, title: undefined } : null;
}
