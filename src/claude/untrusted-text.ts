import { stripAnsi } from '../sandbox/clean-output.js';
import { trimTrailing } from '../text-scan.js';

// The issue's title, body and comments are written by anyone who can open an issue. They reach the
// model as data: what a reader of the rendered issue cannot see is removed (it is where injected
// instructions hide), and the rest is wrapped in delimiters the text itself cannot forge.

const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
/**
 * `[//]: # (note)` and friends: markdown link definitions that never render. A line starts after a
 * line feed, as in markdown: with `^` of the `m` flag (also after U+2028), a label holding U+2028s
 * was read again from each of them.
 */
const MARKDOWN_COMMENT = /(?:^|(?<=\n))[ \t]*\[[^\]\n]*\]:[ \t]*(?:#|<>)[^\n]*(?=\n|$)/g;
/** Elements GitHub never renders, with their contents. */
const INVISIBLE_ELEMENTS = ['script', 'style', 'template', 'noscript', 'iframe', 'object'];
const HIDDEN_STYLE =
  /(display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?![.\d])|opacity\s*:\s*0(?![.\d])|(?:max-)?height\s*:\s*0(?![.\d]))/i;
/**
 * Invisible or direction-changing code points: zero-width and joiners, bidi embeddings, overrides
 * and isolates, word joiners and invisible operators, BOM, soft hyphen, the tag block (used to smuggle
 * ASCII), variation selectors, and control characters other than tab and newline.
 */
// Built from a string: the ranges name control and combining characters on purpose.
const INVISIBLE_CHARS = new RegExp(
  '[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\u00AD\\u034F\\u061C\\u115F\\u1160\\u180B-\\u180F' +
    '\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u206F\\u3164\\uFE00-\\uFE0F\\uFEFF\\uFFA0\\uFFF9-\\uFFFB' +
    '\\u{E0000}-\\u{E007F}\\u{E0100}-\\u{E01EF}]',
  'gu',
);
/** Our own delimiter names: the data may not open or close them. */
const DELIMITER = /<(\/?)\s*(untrusted_issue|issue_title|issue_body|issue_comment|test_output)\b/gi;

/** Removes every part of the text a reader of the rendered issue would not see. */
export function stripHidden(text: string): string {
  let out = text.replace(/\r\n?/g, '\n');
  out = out.replace(HTML_COMMENT, '');
  out = out.replace(INVISIBLE_CHARS, '');
  for (const tag of INVISIBLE_ELEMENTS) out = removeElements(out, tag, () => true);
  out = removeElements(out, '[a-z][a-z0-9-]*', (open) => isHiddenTag(open));
  out = out.replace(MARKDOWN_COMMENT, '');
  return out;
}

/** Hidden parts removed, delimiters neutralised, blank runs collapsed, length capped. */
export function sanitizeUntrusted(text: string, maxChars = 20_000): string {
  let out = stripHidden(text);
  out = out.replace(DELIMITER, '&lt;$1$2');
  out = out
    .split('\n')
    .map((line) => trimTrailing(line, ' \t'))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (out.length > maxChars) {
    out = `${out.slice(0, maxChars)}\n[… ${out.length - maxChars} more characters cut]`;
  }
  return out;
}

export interface UntrustedIssue {
  title: string;
  body: string;
  comments: { author: string; body: string }[];
}

const MAX_COMMENTS = 20;

/** The issue as one delimited block of data, identical for identical input. */
export function fenceIssue(issue: UntrustedIssue): string {
  const comments = issue.comments.slice(-MAX_COMMENTS);
  const skipped = issue.comments.length - comments.length;
  const lines = [
    '<untrusted_issue>',
    `<issue_title>${sanitizeUntrusted(issue.title, 300).replace(/\n/g, ' ')}</issue_title>`,
    '<issue_body>',
    sanitizeUntrusted(issue.body) || '(empty)',
    '</issue_body>',
  ];
  if (skipped > 0) lines.push(`(${skipped} earlier comments left out)`);
  for (const c of comments) {
    const author = c.author.replace(/[^\w.[\]-]/g, '').slice(0, 60) || 'unknown';
    lines.push(`<issue_comment author="${author}">`, sanitizeUntrusted(c.body, 4_000), '</issue_comment>');
  }
  lines.push('</untrusted_issue>');
  return lines.join('\n');
}

/** Test output is produced by the repository's code: also data, also fenced. */
export function fenceTestOutput(output: string, maxChars: number): string {
  // Whole escape sequences first: removing only their ESC byte would leave `[31m` in the prompt.
  let text = stripAnsi(output.replace(/\r\n?/g, '\n'))
    .replace(INVISIBLE_CHARS, '')
    .replace(DELIMITER, '&lt;$1$2');
  if (text.length > maxChars)
    text = `[… ${text.length - maxChars} earlier characters cut]\n${text.slice(-maxChars)}`;
  return `<test_output>\n${text.trim()}\n</test_output>`;
}

function isHiddenTag(openTag: string): boolean {
  if (/\shidden(\s|=|\/?>)/i.test(openTag)) return true;
  if (/\saria-hidden\s*=\s*["']?true/i.test(openTag)) return true;
  const style = /\sstyle\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(openTag);
  return style ? HIDDEN_STYLE.test(style[2] ?? style[3] ?? style[4] ?? '') : false;
}

/**
 * The next tag `<name …>` at or after `from` whose name `re` (global, `<(name)\b`) matches; null when
 * none. A tag runs to the first `>`: with none after a name, none follows at all (a regex reading
 * `[^>]*>` would read to the end again from every later `<`).
 */
function nextTag(text: string, re: RegExp, from: number) {
  re.lastIndex = from;
  const m = re.exec(text);
  if (!m) return null;
  const gt = text.indexOf('>', re.lastIndex);
  if (gt < 0) return null;
  return { at: m.index, end: gt + 1, name: m[1]!, text: text.slice(m.index, gt + 1) };
}

/**
 * Removes each element whose opening tag matches, through its matching close tag (or the end). The
 * text is copied once, in the pieces kept: cutting each element out of the whole text was quadratic
 * in the number of elements.
 */
function removeElements(text: string, tagPattern: string, hidden: (openTag: string) => boolean): string {
  const open = new RegExp(`<(${tagPattern})\\b`, 'gi');
  const kept: string[] = [];
  let copied = 0;
  let from = 0;
  for (let tag = nextTag(text, open, from); tag; tag = nextTag(text, open, from)) {
    if (!hidden(tag.text)) {
      from = tag.end;
      continue;
    }
    kept.push(text.slice(copied, tag.at));
    copied = tag.text.endsWith('/>') ? tag.end : matchingClose(text, tag.name, tag.end);
    from = copied;
  }
  kept.push(text.slice(copied));
  return kept.join('');
}

function matchingClose(text: string, tag: string, start: number): number {
  const re = new RegExp(`<(/?)${tag}\\b`, 'gi');
  let depth = 1;
  for (let m = nextTag(text, re, start); m; m = nextTag(text, re, m.end)) {
    depth += m.name ? -1 : m.text.endsWith('/>') ? 0 : 1;
    if (depth === 0) return m.end;
  }
  return text.length;
}
