import type { TestCase, TestStatus } from '../../events/effect-results.js';
import { stripAnsi } from './ansi.js';
import type { CaseBatch } from './case-list.js';
import { failureMessage } from './case-message.js';

// What ava prints for people, read when its TAP reporter could not be asked for (ava inside a
// list such as `xo && ava && tsd`). A line per test:
//   ✔ parse › hours (120ms)      - [skip] parse › days      - [todo] parse › weeks
//   ✘ [fail]: parse › minutes Values are not the same
// and, after a `─` rule, a block per failure that opens with the test's title alone. The title on
// a `✘` line runs on into the error's message, so it is cut at a title a failure block names.
// Titles are split on ` › ` as in the TAP reader; ava-files.ts finds their files.

const RULE = '─';

/** `(120ms)`, `(1.2s)`, `(1m 3s)` at the end of a passing line. */
function withoutDuration(text: string): string {
  if (!text.endsWith(')')) return text;
  const open = text.lastIndexOf(' (');
  return open >= 0 && /^ \(\d[\d.]*\s?(ms|s|m|h)( \d[\d.]*\s?(ms|s|m|h))*\)$/.test(text.slice(open))
    ? text.slice(0, open)
    : text;
}

export function avaText(output: string, cwd: string): CaseBatch {
  const lines = stripAnsi(output).replace(/\r\n?/g, '\n').split('\n');
  const rows: { title: string; status: TestStatus }[] = [];
  const blocks = new Map<string, string>();
  let firstRule = lines.findIndex((l) => l.trim() === RULE);
  if (firstRule < 0) firstRule = lines.length;

  for (const raw of lines.slice(0, firstRule)) {
    const line = raw.trim();
    if (line.startsWith('✔ [expected fail] ')) rows.push({ title: line.slice(18), status: 'passed' });
    else if (line.startsWith('✔ ')) rows.push({ title: withoutDuration(line.slice(2)), status: 'passed' });
    else if (line.startsWith('✘ [fail]: ')) rows.push({ title: line.slice(10), status: 'failed' });
    else if (line.startsWith('✘ [unexpected pass]: ')) rows.push({ title: line.slice(21), status: 'failed' });
    else if (line.startsWith('- [skip] ') || line.startsWith('- [todo] '))
      rows.push({ title: line.slice(9), status: 'skipped' });
  }
  // Failure blocks: `─`, a blank line, the title, then the details up to the next rule.
  for (let i = firstRule; i < lines.length; i++) {
    if (lines[i]!.trim() !== RULE) continue;
    let j = i + 1;
    while (j < lines.length && lines[j]!.trim() === '') j++;
    const title = lines[j]?.trim();
    if (!title || title === RULE) continue;
    let end = j + 1;
    while (end < lines.length && lines[end]!.trim() !== RULE) end++;
    blocks.set(title, lines.slice(j + 1, end).join('\n'));
    i = end - 1;
  }
  const titles = [...blocks.keys()].sort((a, b) => b.length - a.length);
  const cases: TestCase[] = rows.map(({ title, status }) => {
    const named =
      status === 'failed' ? (titles.find((t) => title === t || title.startsWith(`${t} `)) ?? title) : title;
    const parts = named.split(' › ');
    return {
      id: parts.join(' > '),
      file: null,
      name: parts.at(-1)!,
      status,
      durationMs: null,
      message: status === 'failed' ? failureMessage(blocks.get(named) ?? null, cwd) : null,
    };
  });
  return { cases, loadErrors: [] };
}
