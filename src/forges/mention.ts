import type { CommandWord } from '../events/conversation-events.js';

// How a comment calls on booty, for every forge: by its handle as a whole word (the App's name on
// GitHub), in the commenter's own words. What follows the handle is a command from the table, a
// question (answered, never committed), or a request for a change. Pure.

/** A handle as forges spell a login: letters, digits and inner hyphens. */
export const HANDLE = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;

export type Mention = { command: CommandWord; text?: string } | { request: string } | { question: string };

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
 * The handle as a whole mention: not part of an address (`email@booty.dev`), a longer login
 * (`@booty-maintainers`, `@bootyx`), a team (`@booty/reviewers`) or a domain (`@booty.dev`).
 */
function mentionOf(handle: string): RegExp {
  const name = handle.replace(/[^A-Za-z0-9-]/g, '');
  return new RegExp(`(?:^|[^\\w@./+\`-])@${name}(?![\\w-]|[./][\\w])[ \\t,:;]*([^\\n]*)`, 'i');
}

/** The commands, each a word the writer may end with punctuation (`@booty approve.`). */
const COMMAND = /^(retry|stop|cancel|continue|approve)\b[\s.!,;:)]*$/i;

/** `@booty apply suggestions`: the pull request's suggestion blocks, committed as written. */
const APPLY = /^apply\s+(?:the\s+|all\s+)?suggestions?\b[\s.!,;:)]*$/i;

/**
 * The command, question or request a comment makes of booty, or null when booty is not called in
 * the commenter's own words. `@booty revise <text>` takes the writer's whole text from there on.
 */
export function parseMention(body: string, handle = 'booty'): Mention | null {
  const own = ownWords(body);
  const m = mentionOf(handle).exec(own);
  if (!m) return null;
  const rest = m[1]!.trim();
  const word = COMMAND.exec(rest)?.[1]?.toLowerCase();
  if (word) return { command: word as CommandWord };
  if (APPLY.test(rest)) return { command: 'apply' };
  // The revision is the writer's whole text from there on, their code and quotes included.
  const revise = /^revise\b/i.test(rest) && /\brevise\b\s*([\s\S]*)$/i.exec(body.slice(m.index));
  if (revise) {
    const text = revise[1]!.trim();
    return text ? { command: 'revise', text } : { command: 'revise' };
  }
  // What was asked: the words after the handle, or the next line's when the handle stands alone.
  const asked = rest || own.slice(m.index + m[0].length).trim();
  return isQuestion(asked) ? { question: body.trim() } : { request: body.trim() };
}

const ASKS =
  /^(?:why|what|how|where|when|which|who|whose|whom|is|are|was|were|does|do|did|has|have|should|explain|describe)\b/i;
/** A request in a question's clothes: "can you add a test?" asks for a change. */
const REQUESTS = /^(?:(?:can|could|would|will)\s+(?:you|we|booty)\b|please\b|how\s+about\b|what\s+about\b)/i;
const TELLS =
  /^(?:(?:can|could|would|will)\s+(?:you|we)\s+|please\s+)(?:explain|tell|describe|show\s+(?:me|us)\s+(?:where|why|how|what))\b/i;

/**
 * Whether what a writer asked is a question (answered in a reply, never committed) rather than a
 * request for a change: it opens with a question word, or asks to explain, or it is a sentence
 * that ends in a question mark and does not ask for something to be done.
 */
export function isQuestion(asked: string): boolean {
  const text = asked.trim();
  if (!text) return false;
  if (TELLS.test(text)) return true;
  if (REQUESTS.test(text)) return false;
  if (ASKS.test(text)) return true;
  const first = text.split(/\n\s*\n/)[0]!.trim();
  return first.endsWith('?');
}

/** A comment's first line, short, with its mentions defused, so a reply that quotes it calls nobody (booty included). */
export function quotedFirstLine(body: string): string {
  const line =
    body
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  const short = line.length > 200 ? `${line.slice(0, 200)}…` : line;
  return short.replace(/@(?=[A-Za-z0-9])/g, '@\u200b');
}
