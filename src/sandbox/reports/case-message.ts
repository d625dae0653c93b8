import { LINE_BREAK } from '../../text-scan.js';
import { stripAnsi } from './ansi.js';

// A failure's message as people and the model read it: what the runner said, and the stack frames
// of the test's own code. Runner and runtime frames say nothing about the change being tested.

export const MESSAGE_CAP = 2_000;

const FRAME = /^\s*at (?:.*? \()?(.+?)\)?$/;

/** Frames in node's internals, dependencies, or nowhere in particular. */
function isForeignFrame(line: string): boolean {
  // A line break after `at ` fails FRAME, once it has read up to it from every ` (`: no frame.
  if (LINE_BREAK.test(line.trimStart())) return false;
  const m = FRAME.exec(line);
  if (!m) return false;
  const where = m[1]!;
  return (
    where.startsWith('node:') ||
    where.startsWith('internal/') ||
    where.includes('node_modules/') ||
    where === '<anonymous>' ||
    /^index \d+$/.test(where)
  );
}

/** Absolute paths under the work tree, shown relative to it (also as file:// URLs). */
export function relativePaths(text: string, cwd: string): string {
  const root = cwd.replace(/\/+$/, '');
  if (!root) return text;
  return text.replaceAll(`file://${root}/`, '').replaceAll(`${root}/`, '');
}

const FROZEN = /^<frozen [^>]+>:\d+: in /;
const PYTHON_LIBRARY = /\/(?:site-packages|dist-packages|lib\/python\d\.\d+)\/./;

/** A Python traceback entry outside the project (`.../site-packages/x.py:12: in f`, `<frozen ...>`),
 * which runs on over the indented source lines below it. Read in parts: as one regex,
 * `^\S*\/(?:site-packages|…)\/\S+:\d+: in `, it reread the path from each library folder in it. */
function isForeignPython(line: string): boolean {
  if (FROZEN.test(line)) return true;
  // `<path>:<line>: in `: the path runs to the first space, through a library folder.
  const space = line.search(/\s/);
  if (space < 0 || !line.startsWith(' in ', space)) return false;
  const at = /:\d+:$/.exec(line.slice(0, space));
  return at !== null && PYTHON_LIBRARY.test(line.slice(0, at.index));
}

function ownLines(lines: string[]): string[] {
  const out: string[] = [];
  let inForeignPython = false;
  for (const line of lines) {
    if (isForeignPython(line)) {
      inForeignPython = true;
      continue;
    }
    if (inForeignPython && /^\s/.test(line)) continue;
    inForeignPython = false;
    if (!isForeignFrame(line)) out.push(line);
  }
  return out;
}

/** The message's text before its end is trimmed: each step reads lines, so a prefix of whole lines
 * gives a prefix of this (but for an OSC sequence, which may run over lines). */
const unended = (text: string, cwd: string) =>
  relativePaths(ownLines(stripAnsi(text).replace(/\r\n?/g, '\n').split('\n')).join('\n'), cwd)
    .replace(/\n{3,}/g, '\n\n')
    .trimStart();

const capped = (body: string) => (body.length > MESSAGE_CAP ? `${body.slice(0, MESSAGE_CAP - 1)}…` : body);

export function failureMessage(text: string | null | undefined, cwd: string): string | null {
  if (!text) return null;
  // A long text is read in growing prefixes of whole lines until one gives more than the cap: a
  // message keeps 2,000 characters of what may be a megabyte of output.
  if (!text.includes('\u001b]') && !cwd.includes('\n')) {
    for (let size = 16 * MESSAGE_CAP; size < text.length; size *= 4) {
      const cut = text.indexOf('\n', size);
      if (cut < 0) break;
      const head = unended(text.slice(0, cut + 1), cwd);
      if (head.trimEnd().length > MESSAGE_CAP) return capped(head);
    }
  }
  const body = unended(text, cwd).trimEnd();
  return body ? capped(body) : null;
}
