// Where a review comment sits in a file's diff, found as GitHub finds it: by a line of the file on
// one side (`line` + `side`), or by `position`, the count of lines below the file's first hunk
// header (later headers count too). Its diff_hunk is its hunk's header up to the commented line.

interface DiffLine {
  position: number;
  text: string;
  /** The hunk header's position; 0 for the first hunk, whose header sits above position 1. */
  hunkStart: number;
  oldLine: number | null;
  newLine: number | null;
}

export interface Anchor {
  line: number;
  side: 'LEFT' | 'RIGHT';
  position: number;
  diffHunk: string;
}

function parse(diff: string): { lines: DiffLine[]; headers: Map<number, string> } {
  const lines: DiffLine[] = [];
  const headers = new Map<number, string>();
  let position = -1;
  let hunkStart = 0;
  let oldLine = 0;
  let newLine = 0;
  for (const text of diff.split('\n')) {
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (header) {
      position += 1;
      hunkStart = position;
      headers.set(position, text);
      oldLine = Number(header[1]);
      newLine = Number(header[2]);
      continue;
    }
    if (position < 0 || text.startsWith('\\')) continue;
    const kind = text[0];
    if (kind !== ' ' && kind !== '+' && kind !== '-') continue;
    position += 1;
    lines.push({
      position,
      text,
      hunkStart,
      oldLine: kind === '+' ? null : oldLine++,
      newLine: kind === '-' ? null : newLine++,
    });
  }
  return { lines, headers };
}

/** The anchor for a line or a position, or null when it is not part of the diff. */
export function anchorIn(
  diff: string,
  at: { line?: number; side?: 'LEFT' | 'RIGHT'; position?: number },
): Anchor | null {
  const { lines, headers } = parse(diff);
  const side = at.side ?? 'RIGHT';
  const found =
    at.position !== undefined
      ? lines.find((l) => l.position === at.position)
      : lines.find((l) => (side === 'RIGHT' ? l.newLine : l.oldLine) === at.line);
  if (!found) return null;
  const hunk = lines.filter((l) => l.hunkStart === found.hunkStart && l.position <= found.position);
  const onLeft = at.position !== undefined ? found.newLine === null : side === 'LEFT';
  return {
    line: (onLeft ? found.oldLine : found.newLine)!,
    side: onLeft ? 'LEFT' : 'RIGHT',
    position: found.position,
    diffHunk: [headers.get(found.hunkStart)!, ...hunk.map((l) => l.text)].join('\n'),
  };
}

/** A comment on the whole file: GitHub shows the file's first hunk. */
export function firstHunk(diff: string): string | null {
  const { lines, headers } = parse(diff);
  const first = headers.get(0);
  if (!first) return null;
  return [first, ...lines.filter((l) => l.hunkStart === 0).map((l) => l.text)].join('\n');
}
