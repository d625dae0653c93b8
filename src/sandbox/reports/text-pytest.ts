import type { TestCase, TestStatus } from '../../events/effect-results.js';
import { type CaseBatch, mergeById } from './case-list.js';
import { failureMessage } from './case-message.js';

// pytest's printed results: `-v` lines (`tests/a.py::test_x[1 h] PASSED  [ 50%]`), and the short
// summary (`FAILED tests/a.py::test_x[1 h] - AssertionError`, `ERROR tests/test_bad.py`). A node id
// runs to the `]` that closes its parameters, which may hold spaces.

const NODE_ID = String.raw`\S+?\.py(?:::[^\s[]+)*(?:\[.*?\])?`;
const VERBOSE = new RegExp(`^(${NODE_ID}) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\\b`);
const XDIST = new RegExp(
  `^\\[gw\\d+\\] \\[\\s*\\d+%\\] (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (${NODE_ID})\\s*$`,
);
const SUMMARY = new RegExp(`^(FAILED|ERROR) (${NODE_ID})(?: - (.*))?$`);

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
  return { id, file: id.split('::')[0]!, name: name.replace(/\[.*$/, ''), status, durationMs: null, message };
};

export function pytestText(lines: string[], cwd: string): CaseBatch {
  const verbose: TestCase[] = [];
  const summary: TestCase[] = [];
  const loadErrors: CaseBatch['loadErrors'] = [];
  for (const line of lines) {
    const v = VERBOSE.exec(line);
    const x = XDIST.exec(line);
    if (v || x) {
      const [id, word] = v ? [v[1]!, v[2]!] : [x![2]!, x![1]!];
      verbose.push(pytestCase(id, STATUS[word]!));
      continue;
    }
    const s = SUMMARY.exec(line);
    if (!s) continue;
    const [, word, id, reason] = s;
    if (!id!.includes('::')) {
      // A module that did not import: its traceback is the `ERROR collecting <file>` block.
      const header = lines.findIndex((l) =>
        new RegExp(`^_+ ERROR collecting ${escapeRegExp(id!)} _+$`).test(l),
      );
      const block = header < 0 ? [] : lines.slice(header + 1, nextHeader(lines, header + 1));
      loadErrors.push({
        file: id!,
        message: failureMessage(block.join('\n'), cwd) ?? reason ?? 'collection error',
      });
      continue;
    }
    summary.push(pytestCase(id!, STATUS[word!]!, failureMessage(reason, cwd)));
  }
  // -v prints a test twice when its teardown errors: one test, the worse outcome.
  return { cases: mergeById(mergeById([], verbose), summary), loadErrors };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function nextHeader(lines: string[], from: number): number {
  for (let i = from; i < lines.length; i++) if (/^(_{3,}|={3,}) /.test(lines[i]!)) return i;
  return lines.length;
}
