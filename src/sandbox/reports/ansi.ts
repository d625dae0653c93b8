// Terminal escape sequences, removed whole before any text is read: a colour code left half in
// place (`[31m` without its ESC) would end up inside test names and messages.

const ANSI = new RegExp(
  [
    // OSC: ESC ] ... ended by BEL or ESC \ (window titles, hyperlinks).
    '\\u001b\\][^\\u0007\\u001b]*(?:\\u0007|\\u001b\\\\)',
    // CSI: ESC [ (or the one-byte CSI) parameters, intermediates, final byte (colours, cursor moves).
    '(?:\\u001b\\[|\\u009b)[0-?]*[ -/]*[@-~]',
    // Any other escape: ESC, intermediates, final byte (charset selection, ESC 7, ESC =).
    '\\u001b[ -/]*[0-~]',
  ].join('|'),
  'g',
);

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}
