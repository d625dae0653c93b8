// Small text helpers shared by the CLI's lines, the GitHub comments and booty's HTML pages.

/** "1 test", "2 tests". */
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Text made safe to put inside HTML, attributes included. */
export const escapeHtml = (text: unknown) =>
  String(text).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
