// Just enough of the shell to tell a simple command from anything else. booty only changes a
// command it fully understands: one program with words, no operators, redirects or substitutions.

export interface Word {
  /** The word as the program receives it: quotes removed, escapes resolved. */
  text: string;
  /** Where it starts and ends in the command string, to insert flags after it. */
  start: number;
  end: number;
}

/** Single-quoted, so the shell passes it through untouched. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** The words of a simple command, or null when the string is more than one (or not safe to edit). */
export function simpleCommandWords(command: string): Word[] | null {
  const words: Word[] = [];
  let text = '';
  let start = -1;
  let quote: "'" | '"' | null = null;
  const end = (at: number) => {
    if (start >= 0) words.push({ text, start, end: at });
    text = '';
    start = -1;
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else text += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '`' || (c === '$' && command[i + 1] === '(')) return null;
      else if (c === '\\' && /["\\$`]/.test(command[i + 1] ?? '')) text += command[++i];
      else text += c;
      continue;
    }
    if (c === ' ' || c === '\t') {
      end(i);
      continue;
    }
    // Operators, redirects, substitutions, subshells, comments and line breaks: not a simple command.
    if (/[;&|<>()`\n\r]/.test(c) || (c === '$' && command[i + 1] === '(')) return null;
    if (c === '#' && start < 0) return null;
    if (start < 0) start = i;
    if (c === "'" || c === '"') quote = c;
    else if (c === '\\') text += command[++i] ?? '';
    else text += c;
  }
  if (quote) return null;
  end(command.length);
  return words;
}

/** One command of a list (`a && b || c; d`): where it sits in the whole string, and its text. */
export interface Segment {
  text: string;
  start: number;
  end: number;
}

/**
 * The commands of a list joined by `&&`, `||` or `;`, outside quotes, in order. Anything else a
 * segment holds (a pipe, a redirect) stays in it, and simpleCommandWords then refuses that one
 * segment. One pass over the string.
 */
export function commandSegments(command: string): Segment[] {
  const out: Segment[] = [];
  let start = 0;
  let quote: "'" | '"' | null = null;
  const cut = (end: number, next: number) => {
    const raw = command.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const text = raw.trim();
    if (text) out.push({ text, start: start + lead, end: start + lead + text.length });
    start = next;
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"') i++;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '\\') i++;
    else if ((c === '&' || c === '|') && command[i + 1] === c) {
      cut(i, i + 2);
      i++;
    } else if (c === ';' || c === '\n') cut(i, i + 1);
  }
  cut(command.length, command.length);
  return out;
}
