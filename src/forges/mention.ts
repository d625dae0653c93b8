import type { CommandWord } from '../events/conversation-events.js';

// How a comment calls on booty, the same on every forge: `@booty` and a command or a request, in
// the commenter's own words (not a quote, code or a template's hidden hint).

/**
 * What the commenter said in their own words: a quoted line is someone else's (a reply quoting
 * `@booty cancel` must not cancel again), and code, fenced or inline, or an HTML comment (an issue
 * template's hint) shows a command without giving it.
 */
function ownWords(body: string): string {
  // Blanked, not cut: a position in the result is the same position in the body.
  const blank = (text: string) => text.replace(/[^\n]/g, ' ');
  return body
    .replace(/^[ \t]*(```|~~~)[\s\S]*?(?:^[ \t]*\1[^\n]*$|(?![\s\S]))/gm, blank)
    .replace(/<!--[\s\S]*?(?:-->|(?![\s\S]))/g, blank)
    .replace(/^[ \t]*>.*$/gm, blank)
    .replace(/`[^`\n]*`/g, blank);
}

/**
 * `@booty retry|stop|cancel|continue|approve`, `@booty revise <what to change>` (the text may run
 * on over the following lines), or `@booty <request>`; null when booty is not called in the
 * commenter's own words.
 */
export function parseMention(
  body: string,
  name = 'booty',
): { command: CommandWord; text?: string } | { request: string } | null {
  const own = ownWords(body);
  const m = new RegExp(`(?:^|\\s)@${name}\\b[ \\t]*([^\\n]*)`, 'i').exec(own);
  if (!m) return null;
  const rest = m[1]!.trim();
  // A command may end a sentence (`@booty approve.`, `@booty continue!`): punctuation is not a request.
  const word = /^(retry|stop|cancel|continue|approve)\b[\s.!,;:)]*$/i.exec(rest)?.[1]?.toLowerCase();
  if (word) return { command: word as CommandWord };
  // The revision is the writer's whole text from there on, their code and quotes included.
  const revise = /^revise\b/i.test(rest) && /\brevise\b\s*([\s\S]*)$/i.exec(body.slice(m.index));
  if (revise) {
    const text = revise[1]!.trim();
    return text ? { command: 'revise', text } : { command: 'revise' };
  }
  return { request: body.trim() };
}
