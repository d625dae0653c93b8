import type { TestCase, TestStatus } from '../../events/effect-results.js';
import { type CaseBatch, mergeById } from './case-list.js';
import { failureMessage } from './case-message.js';
import { pytestNodeIdEnd } from './pytest-node-id.js';

// pytest's printed results: `-v` lines (`tests/a.py::test_x[1 h] PASSED  [ 50%]`), and the short
// summary (`FAILED tests/a.py::test_x[1 h] - AssertionError`, `ERROR tests/test_bad.py`). A node id
// runs to the `]` that closes its parameters, which may hold spaces (pytest-node-id.ts reads it).

const WORD = '(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)';
const VERBOSE_WORD = new RegExp(` ${WORD}\\b`, 'y');
const XDIST = new RegExp(`^\\[gw\\d+\\] \\[\\s*\\d+%\\] ${WORD} `);
const SUMMARY = /^(FAILED|ERROR) /;

/** `<id> PASSED`, as `^(<id>) (PASSED|…)\b` reads it. */
function verbose(line: string): [id: string, word: string] | null {
  let word = '';
  const end = pytestNodeIdEnd(line, 0, (at) => {
    VERBOSE_WORD.lastIndex = at;
    word = VERBOSE_WORD.exec(line)?.[1] ?? '';
    return word !== '';
  });
  return end < 0 ? null : [line.slice(0, end), word];
}

/** `[gw0] [ 50%] PASSED <id>`, as `^\[gw\d+\] \[\s*\d+%\] (PASSED|…) (<id>)\s*$` reads it. */
function xdist(line: string): [id: string, word: string] | null {
  const head = XDIST.exec(line);
  if (!head) return null;
  const spaceFrom = line.trimEnd().length;
  const end = pytestNodeIdEnd(line, head[0].length, (at) => at >= spaceFrom);
  return end < 0 ? null : [line.slice(head[0].length, end), head[1]!];
}

/** `FAILED <id> - reason`, as `^(FAILED|ERROR) (<id>)(?: - (.*))?$` reads it. */
function summary(line: string): [word: string, id: string, reason: string | undefined] | null {
  const head = SUMMARY.exec(line);
  if (!head) return null;
  const reasonFrom = lastLineStart(line);
  const hasReason = (at: number) => line.startsWith(' - ', at) && at + 3 >= reasonFrom;
  const end = pytestNodeIdEnd(line, head[0].length, (at) => hasReason(at) || at === line.length);
  if (end < 0) return null;
  return [head[1]!, line.slice(head[0].length, end), hasReason(end) ? line.slice(end + 3) : undefined];
}

const STATUS: Record<string, TestStatus> = {
  PASSED: 'passed',
  XPASS: 'passed', // strict xpasses are reported as FAILED
  FAILED: 'failed',
  ERROR: 'errored',
  SKIPPED: 'skipped',
  XFAIL: 'skipped',
};

const pytestCase = (id: string, status: TestStatus, message: string | null = null): TestCase => {
  const name = id.split('::').at(-1)!;
  // Up to the first `[` of its last line, as `name.replace(/\[.*$/, '')` would cut it.
  const bracket = name.indexOf('[', lastLineStart(name));
  const plain = bracket < 0 ? name : name.slice(0, bracket);
  return { id, file: id.split('::')[0]!, name: plain, status, durationMs: null, message };
};

export function pytestText(lines: string[], cwd: string): CaseBatch {
  const verboseCases: TestCase[] = [];
  const summaryCases: TestCase[] = [];
  const loadErrors: CaseBatch['loadErrors'] = [];
  let blocks: CollectionBlocks | null = null;
  for (const line of lines) {
    const seen = verbose(line) ?? xdist(line);
    if (seen) {
      const [id, word] = seen;
      verboseCases.push(pytestCase(id, STATUS[word]!));
      continue;
    }
    const s = summary(line);
    if (!s) continue;
    const [word, id, reason] = s;
    if (!id.includes('::')) {
      // A module that did not import: its traceback is the `ERROR collecting <file>` block.
      blocks ??= new CollectionBlocks(lines, cwd);
      loadErrors.push({ file: id, message: blocks.message(id) ?? reason ?? 'collection error' });
      continue;
    }
    summaryCases.push(pytestCase(id, STATUS[word]!, failureMessage(reason, cwd)));
  }
  // -v prints a test twice when its teardown errors: one test, the worse outcome.
  return { cases: mergeById(mergeById([], verboseCases), summaryCases), loadErrors };
}

/** Where the last line of a text starts (after its last line break, as `.` and `$` see them). */
function lastLineStart(text: string): number {
  let i = text.length;
  while (i > 0 && !'\n\r\u2028\u2029'.includes(text[i - 1]!)) i--;
  return i;
}

/**
 * The traceback under each `____ ERROR collecting <file> ____` header, found by one read of the
 * output and kept: a summary may name a module any number of times.
 */
class CollectionBlocks {
  private readonly headers = new Map<string, number>();
  private readonly messages = new Map<number, string | null>();

  constructor(
    private readonly lines: string[],
    private readonly cwd: string,
  ) {
    lines.forEach((line, i) => {
      const file = collectedFile(line);
      if (file !== null && !this.headers.has(file)) this.headers.set(file, i);
    });
  }

  message(file: string): string | null {
    const header = this.headers.get(file);
    if (header === undefined) return null;
    if (!this.messages.has(header)) {
      const block = this.lines.slice(header + 1, nextHeader(this.lines, header + 1));
      this.messages.set(header, failureMessage(block.join('\n'), this.cwd));
    }
    return this.messages.get(header)!;
  }
}

/** The file a `^_+ ERROR collecting <file> _+$` header names, or null. */
function collectedFile(line: string): string | null {
  const head = /^_+ ERROR collecting /.exec(line);
  if (!head) return null;
  let end = line.length;
  while (end > 0 && line[end - 1] === '_') end--;
  if (end === line.length || line[end - 1] !== ' ' || end - 1 <= head[0].length) return null;
  return line.slice(head[0].length, end - 1);
}

function nextHeader(lines: string[], from: number): number {
  for (let i = from; i < lines.length; i++) if (/^(_{3,}|={3,}) /.test(lines[i]!)) return i;
  return lines.length;
}
