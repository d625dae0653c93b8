// What a test command printed, made fit to keep and to show: terminal escape sequences removed
// whole (CSI, OSC and the rest, not just the ESC byte), carriage-return redraws collapsed, the
// workspace shown as `.` and the sandbox's HOME as `~`, and secrets scrubbed. Everything that goes
// from a run into the log, a prompt or a comment passes through here first.

// biome-ignore-start lint/suspicious/noControlCharactersInRegex: these are the sequences to remove.
const OSC = /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g;
const CSI = /(?:\u001b\[|\u009b)[0-9:;<=>?]*[ -/]*[@-~]/g;
const OTHER_ESCAPES = /\u001b[ -/]*[0-~]?/g;
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
// biome-ignore-end lint/suspicious/noControlCharactersInRegex: these are the sequences to remove.
/** An SGR sequence whose ESC was already lost upstream: `[31m`, `[2m`, `[0m`. */
const ORPHAN_SGR = /\[(?:\d{1,3}(?:;\d{1,3})*)?m/g;
/** A sequence a reporter escaped into text (TAP's YAML writes ESC as `\x1B`): `\x1B[31m`. */
const ESCAPED_ESC = /\\(?:x1[bB]|u001[bB]|033|e)(?:\[[0-9;?]*[ -/]*[@-~])?/g;

export function stripAnsi(text: string): string {
  return text
    .replace(ESCAPED_ESC, '')
    .replace(OSC, '')
    .replace(CSI, '')
    .replace(OTHER_ESCAPES, '')
    .replace(ORPHAN_SGR, '')
    .replace(CONTROLS, '');
}

/**
 * Text as a terminal would leave it: CRLF as LF, and a line redrawn with CR keeps its last draw.
 * One pass per line, from its last CR: a regex that looks for a CR ahead of every position of a
 * line is quadratic in the line's length, and one megabyte-long line would stall booty for hours.
 */
export function settleLines(text: string): string {
  const crlf = text.replace(/\r\n/g, '\n');
  if (!crlf.includes('\r')) return crlf;
  const lines = crlf.split('\n');
  return lines
    .map((line, i) => {
      // A CR just before a LF is kept (`\r\r\n` left one): it redraws nothing.
      const end = i < lines.length - 1 && line.endsWith('\r') ? line.length - 2 : line.length - 1;
      const cr = end < 0 ? -1 : line.lastIndexOf('\r', end);
      return cr < 0 ? line : line.slice(cr + 1);
    })
    .join('\n');
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface CleanOptions {
  /** The job's work tree: shown as `.`. */
  workspace?: string;
  /** The sandbox's HOME: shown as `~`. */
  home?: string;
  scrub?: (text: string) => string;
}

export function cleanOutput(text: string, options: CleanOptions = {}): string {
  let out = stripAnsi(settleLines(text));
  for (const [dir, shown] of [
    [options.home, '~'],
    [options.workspace, '.'],
  ] as const) {
    if (dir) out = out.replace(new RegExp(`${escapeRegExp(dir.replace(/\/+$/, ''))}(?=/|\\b|$)`, 'g'), shown);
  }
  return options.scrub ? options.scrub(out) : out;
}
