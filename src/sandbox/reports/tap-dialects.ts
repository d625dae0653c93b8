import { Parser, type Result } from 'tap-parser';
import type { TestCase, TestStatus } from '../../events/effect-results.js';
import { type CaseBatch, repoPath, uniqueIds } from './case-list.js';
import { failureMessage } from './case-message.js';

// TAP as three JavaScript runners write it, where a test point is not always a test:
//   ava --tap   one point per test, titled `file › title` (the file's path without its test
//               directory or extension, and no prefix at all when one file ran)
//   tape        a `# title` comment opens each test; its points are assertions
//   node-tap    one subtest per file (`# Subtest: test/x.js`), in it one per `t.test`, whose
//               points are assertions
// Each is read into the same ids as the other reports: file > titles > name where the runner
// gives the file, titles > name where it does not (tape).

export type TapDialect = 'ava' | 'tape' | 'node-tap';

type Diag = Record<string, unknown>;

/** A failing point's YAML, as a message: what was compared, where, and the stack. */
function diagText(name: string, diag: Diag | null, cwd: string): string | null {
  if (!diag) return failureMessage(name, cwd);
  const lines: string[] = [];
  const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v, null, 2));
  for (const key of ['message', 'error', 'name', 'operator', 'expected', 'actual', 'diff', 'details']) {
    if (diag[key] !== undefined && diag[key] !== '') lines.push(`${key}: ${show(diag[key])}`);
  }
  const at = diag.at;
  if (typeof at === 'string') lines.push(`    at ${at.replace(/\s+/g, ' ')}`);
  else if (at && typeof at === 'object') {
    const a = at as { fileName?: string; lineNumber?: number; columnNumber?: number };
    if (a.fileName) lines.push(`    at ${a.fileName}:${a.lineNumber ?? 0}:${a.columnNumber ?? 0}`);
  }
  if (typeof diag.stack === 'string') {
    lines.push(
      ...diag.stack
        .split('\n')
        .slice(1)
        .map((l) => `    at ${l.trim().replace(/^at /, '')}`),
    );
  }
  return failureMessage([name, ...lines].join('\n'), cwd);
}

const statusOf = (r: Result): TestStatus => (r.skip || r.todo ? 'skipped' : r.ok ? 'passed' : 'failed');
const diagOf = (r: Result): Diag | null => (r.diag && typeof r.diag === 'object' ? (r.diag as Diag) : null);
const seconds = (r: Result) => (typeof r.time === 'number' ? r.time : null);

const testCase = (titles: string[], file: string | null, r: Result, cwd: string): TestCase => {
  const status = statusOf(r);
  const name = titles.at(-1) ?? r.name;
  return {
    id: [file, ...titles].filter(Boolean).join(' > '),
    file,
    name,
    status,
    durationMs: seconds(r),
    message: status === 'failed' ? diagText(r.name, diagOf(r), cwd) : null,
  };
};

/** ava: each point a test. Titles are split on ` › `; the file is found later (see ava-files.ts). */
function readAva(text: string, cwd: string): CaseBatch {
  const cases: TestCase[] = [];
  const root = new Parser();
  root.on('assert', (r: Result) => {
    cases.push(testCase(r.name.split(' › '), null, r, cwd));
  });
  root.end(text);
  return { cases, loadErrors: [] }; // ids made unique once the files are known
}

/** tape: `# title` opens a test, `# SKIP title` is a skipped one, points are its assertions. */
function readTape(text: string, cwd: string): CaseBatch {
  interface Open {
    name: string;
    points: Result[];
  }
  const cases: TestCase[] = [];
  let open: Open | null = null;
  let planned = false;
  const close = () => {
    if (!open || open.points.length === 0) return;
    const failed = open.points.find((p) => !p.ok && !p.todo);
    const allSkipped = open.points.every((p) => p.skip || p.todo);
    const status: TestStatus = failed ? 'failed' : allSkipped ? 'skipped' : 'passed';
    const time = open.points.reduce((t, p) => t + (seconds(p) ?? 0), 0);
    cases.push({
      id: open.name,
      file: null,
      name: open.name,
      status,
      durationMs: time || null,
      message: failed ? diagText(failed.name, diagOf(failed), cwd) : null,
    });
    open = null;
  };
  const root = new Parser();
  root.on('comment', (c: string) => {
    if (planned) return; // the summary after the plan: `# tests 5`, `# pass 4`
    close();
    const title = c.replace(/^#\s?/, '').trimEnd();
    if (title.startsWith('SKIP ')) {
      const name = title.slice('SKIP '.length);
      cases.push({ id: name, file: null, name, status: 'skipped', durationMs: null, message: null });
      return;
    }
    open = { name: title, points: [] };
  });
  root.on('assert', (r: Result) => {
    if (open) open.points.push(r);
  });
  root.on('plan', () => {
    close();
    planned = true;
  });
  root.end(text);
  close();
  return { cases: uniqueIds(cases), loadErrors: [] };
}

interface Point {
  result: Result;
  children: Point[];
}

/** The points of a TAP stream as a tree: a subtest's points under the point that closes it. */
function pointTree(text: string): Point[] {
  const attach = (parser: Parser, into: Point[]) => {
    let pending: { name: string; points: Point[] } | null = null;
    parser.on('child', (child: Parser) => {
      const points: Point[] = [];
      pending = { name: child.name, points };
      attach(child, points);
    });
    parser.on('assert', (r: Result) => {
      const children = pending && pending.name === r.name ? pending.points : [];
      pending = null;
      into.push({ result: r, children });
    });
  };
  const top: Point[] = [];
  const root = new Parser();
  attach(root, top);
  root.end(text);
  return top;
}

const hasFailure = (p: Point): boolean =>
  (!p.result.ok && !p.result.todo) || p.children.some((c) => hasFailure(c));

/** node-tap: files at the top, then `t.test` subtests; a subtest whose points are all assertions is a test. */
function readNodeTap(text: string, cwd: string): CaseBatch {
  const batch: CaseBatch = { cases: [], loadErrors: [] };
  const walk = (points: Point[], titles: string[], file: string) => {
    for (const p of points) {
      const path = [...titles, p.result.name];
      const subtests = p.children.some((c) => c.children.length > 0);
      if (subtests) {
        walk(p.children, path, file);
        // A test that failed for a reason of its own, with every subtest passing.
        if (!p.result.ok && !p.children.some(hasFailure))
          batch.cases.push(testCase(path, file, p.result, cwd));
      } else if (p.children.length > 0 || p.result.skip || p.result.todo) {
        batch.cases.push(testCase(path, file, p.result, cwd));
      }
      // Other leaves are assertions of the test around them.
    }
  };
  for (const f of pointTree(text)) {
    const file = repoPath(f.result.name, cwd);
    const tests = f.children.filter((c) => c.children.length > 0 || c.result.skip || c.result.todo);
    if (tests.length > 0) {
      walk(f.children, [], file);
    } else if (f.children.length > 0) {
      // A file of assertions alone: the file is the test.
      batch.cases.push({ ...testCase([], file, f.result, cwd), id: file, name: file });
    } else if (!f.result.ok && !f.result.skip) {
      batch.loadErrors.push({ file, message: diagText(f.result.name, diagOf(f.result), cwd) ?? 'failed' });
    }
  }
  batch.cases = uniqueIds(batch.cases);
  return batch;
}

export function parseTapDialect(text: string, cwd: string, dialect: TapDialect): CaseBatch {
  switch (dialect) {
    case 'ava':
      return readAva(text, cwd);
    case 'tape':
      return readTape(text, cwd);
    case 'node-tap':
      return readNodeTap(text, cwd);
  }
}
