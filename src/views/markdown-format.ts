import { trimTrailing } from '../text-scan.js';

// Small pure helpers for the markdown booty writes into PR bodies and comments. Each reads its text
// once: a regex such as /\s+$/ rereads a run of spaces from each of its characters.

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

/** A fenced block that no backtick run inside the text can close early. */
export function fenced(text: string, lang = ''): string {
  let longest = 2;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${trimTrailing(text, '\n')}\n${fence}`;
}

/** Inline code that survives backticks in the text. */
export function code(text: string): string {
  const clean = text.replace(/\n/g, ' ');
  return clean.includes('`') ? `\`\` ${clean} \`\`` : `\`${clean}\``;
}

/** The last lines of output, at most maxChars, saying how much was cut. */
export function tail(text: string, maxLines = 60, maxChars = 4000): string {
  const trimmed = text.trimEnd();
  const lines = trimmed.split('\n');
  let kept = lines.slice(-maxLines).join('\n');
  if (kept.length > maxChars) kept = kept.slice(kept.length - maxChars);
  const cut = trimmed.length - kept.length;
  return cut > 0 ? `… (${cut} earlier characters trimmed)\n${kept}` : kept;
}

/** A bullet list, capped, saying how many more there were. */
export function bullets(items: string[], max = 20, render: (s: string) => string = code): string {
  if (items.length === 0) return '_none_';
  const shown = items.slice(0, max).map((i) => `- ${render(i)}`);
  if (items.length > max) shown.push(`- … and ${items.length - max} more`);
  return shown.join('\n');
}

/** GitHub rejects bodies over 65,536 characters. */
export function capBody(body: string, max = 65_000): string {
  return body.length <= max ? body : `${body.slice(0, max)}\n\n… (trimmed to fit GitHub's limit)`;
}
