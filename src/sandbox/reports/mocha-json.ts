import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TestCase } from '../../events/effect-results.js';
import { type CaseBatch, ReportParseError, repoPath, uniqueIds } from './case-list.js';
import { failureMessage } from './case-message.js';

// mocha's `json` reporter. Each test has its title, its file and `fullTitle`, which is the suite
// titles and the title joined by single spaces, so `a b > c` and `a > b c` print alike. The suites
// are split back using the describe titles written in the test file; when the file does not name
// them (titles built at run time), the suite path stays one piece, which is stable all the same.

interface MochaTest {
  title?: string;
  fullTitle?: string;
  file?: string;
  duration?: number;
  err?: { message?: string; stack?: string };
}
interface MochaReport {
  stats?: unknown;
  tests?: MochaTest[];
  pending?: MochaTest[];
  failures?: MochaTest[];
}

export type ReadSource = (absoluteFile: string) => string | null;

const readSourceFile: ReadSource = (file) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

export function isMochaJson(doc: unknown): boolean {
  return (
    typeof doc === 'object' && doc !== null && 'stats' in doc && Array.isArray((doc as MochaReport).tests)
  );
}

/** Literal titles given to describe/context/suite in a source file. */
export function describeTitles(source: string): string[] {
  const titles = new Set<string>();
  const call = /\b(?:describe|context|suite)(?:\.(?:only|skip))?\s*\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;
  for (const m of source.matchAll(call)) {
    if (m[1] === '`' && m[2]!.includes('${')) continue;
    titles.add(m[2]!.replace(/\\(.)/g, '$1'));
  }
  return [...titles].sort((a, b) => b.length - a.length);
}

/** `a b c` into known titles, longest first; null when they do not cover it exactly. */
function splitSuites(joined: string, titles: string[]): string[] | null {
  if (joined === '') return [];
  for (const t of titles) {
    if (joined === t) return [t];
    if (joined.startsWith(`${t} `)) {
      const rest = splitSuites(joined.slice(t.length + 1), titles);
      if (rest) return [t, ...rest];
    }
  }
  return null;
}

const hasError = (t: MochaTest) =>
  Boolean(t.err && (t.err.message !== undefined || t.err.stack !== undefined));
const key = (t: MochaTest) => `${t.file ?? ''}\0${t.fullTitle ?? ''}`;

export function parseMochaJson(
  doc: unknown,
  cwd: string,
  readSource: ReadSource = readSourceFile,
): CaseBatch {
  if (!isMochaJson(doc)) throw new ReportParseError('not a mocha json report: no stats and tests');
  const report = doc as MochaReport;
  const pending = new Set((report.pending ?? []).map(key));
  const inTests = new Set((report.tests ?? []).map(key));
  // Hook failures ("before all" hook for "x") are failures without a test entry.
  const hooks = (report.failures ?? []).filter((f) => !inTests.has(key(f)));
  const titlesByFile = new Map<string, string[]>();
  const titlesOf = (file: string) => {
    if (!titlesByFile.has(file)) {
      const source = readSource(path.resolve(cwd, file));
      titlesByFile.set(file, source ? describeTitles(source) : []);
    }
    return titlesByFile.get(file)!;
  };

  const toCase = (t: MochaTest, hook: boolean): TestCase => {
    const title = t.title ?? '';
    const full = t.fullTitle ?? title;
    const joined = full.endsWith(title) ? full.slice(0, full.length - title.length).trimEnd() : '';
    const file = t.file ? repoPath(t.file, cwd) : null;
    const suites = file ? (splitSuites(joined, titlesOf(file)) ?? [joined]) : [joined];
    const status = hook ? 'errored' : hasError(t) ? 'failed' : pending.has(key(t)) ? 'skipped' : 'passed';
    const err = t.err ?? {};
    const text = err.stack?.includes(err.message ?? '')
      ? err.stack
      : [err.message, err.stack].filter(Boolean).join('\n');
    return {
      id: [file, ...suites, title].filter(Boolean).join(' > '),
      file,
      name: title,
      status,
      durationMs: typeof t.duration === 'number' ? t.duration : null,
      message: status === 'failed' || status === 'errored' ? failureMessage(text, cwd) : null,
    };
  };
  return {
    cases: uniqueIds([
      ...(report.tests ?? []).map((t) => toCase(t, false)),
      ...hooks.map((t) => toCase(t, true)),
    ]),
    loadErrors: [],
  };
}
