import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { LoadError, ReportSource, TestCase } from '../../events/effect-results.js';
import { placeAvaCases } from './ava-files.js';
import { avaText } from './ava-text.js';
import { type CaseBatch, uniqueIds } from './case-list.js';
import { anchorFiles } from './file-anchors.js';
import { parseGoJson } from './go-json.js';
import { isJestJson, parseJestJson } from './jest-json.js';
import { parseJunit } from './junit.js';
import { parseLibtest } from './libtest.js';
import { isMochaJson, parseMochaJson } from './mocha-json.js';
import { reachableWithoutLinks } from './report-globs.js';
import { defaultRoots, type ReporterPlan, type ReportFile, reportFiles } from './reporter-plan.js';
import { isRspecJson, parseRspecJson } from './rspec-json.js';
import { parseTap } from './tap.js';
import { parseTapDialect, type TapDialect } from './tap-dialects.js';
import { parseTextOutput } from './text-fallback.js';
import { isTrx, parseTrx } from './trx.js';
import { parseUvu, uvuDir } from './uvu.js';

// After the run: the cases, from the best source there is. go's JSON stdout; else the report files
// (booty's own and the repository's); else TAP on stdout (ava, tape, node-tap); else what the
// recognised runner prints (cargo's libtest lines, uvu's per-file lines, ava's); else the text.
// Nothing here throws on what a test run left behind: a report that does not parse is noted in
// `problems` and the text is read instead.

export interface ParsedReport {
  source: ReportSource;
  cases: TestCase[];
  loadErrors: LoadError[];
  /** Human-readable text when stdout was structured (go -json): what the tests printed. */
  text?: string;
  /** Reports that were there but could not be read, and why. */
  problems?: string[];
}

type Format = Exclude<ReportFile['format'], 'auto'> | 'go-json';

/** A report the repository writes itself, recognised by its first characters. */
export function sniffFormat(content: string): Format | null {
  const head = content.replace(/^\uFEFF/, '').trimStart();
  if (isTrx(head)) return 'trx';
  if (head.startsWith('<')) return 'junit';
  if (/^\{"(Time|Action)"/.test(head)) return 'go-json';
  if (head.startsWith('{') || head.startsWith('[')) {
    try {
      const doc: unknown = JSON.parse(head);
      if (isJestJson(doc)) return 'jest-json';
      if (isMochaJson(doc)) return 'mocha-json';
      if (isRspecJson(doc)) return 'rspec-json';
    } catch {
      return null;
    }
    return null;
  }
  if (/^(TAP version \d+|(not )?ok\b|1\.\.\d+)/m.test(head)) return 'tap';
  return null;
}

function parseAs(format: Format, content: string, cwd: string): CaseBatch {
  switch (format) {
    case 'junit':
      return parseJunit(content, cwd);
    case 'jest-json':
      return parseJestJson(JSON.parse(content), cwd);
    case 'mocha-json':
      return parseMochaJson(JSON.parse(content), cwd);
    case 'tap':
      return parseTap(content, cwd);
    case 'rspec-json':
      return parseRspecJson(JSON.parse(content), cwd);
    case 'trx':
      return parseTrx(content, cwd);
    case 'go-json':
      return parseGoJson(content, cwd);
  }
}

/** The runners whose TAP is not node:test's, and how to read it. */
const TAP_DIALECT: Partial<Record<NonNullable<ReporterPlan['runner']>, TapDialect>> = {
  ava: 'ava',
  tape: 'tape',
  'node-tap': 'node-tap',
};

const SOURCE: Record<Format, ReportSource> = {
  junit: 'junit',
  'jest-json': 'jest-json',
  'mocha-json': 'mocha-json',
  tap: 'tap',
  'rspec-json': 'rspec-json',
  trx: 'trx',
  'go-json': 'go-json',
};

/** mocha before 9 ignores `output` and prints its JSON on stdout. */
function mochaJsonIn(output: string): unknown {
  const start = output.search(/^\{\s*"stats":/m);
  if (start < 0) return null;
  try {
    return JSON.parse(output.slice(start, output.lastIndexOf('}') + 1));
  } catch {
    return null;
  }
}

export async function readResults(input: {
  plan: ReporterPlan;
  output: string;
  cwd: string;
  /** Where report files may be read from, with no link on the way (default: the work tree). */
  roots?: readonly string[];
}): Promise<ParsedReport> {
  const { plan, output, cwd } = input;
  const roots = input.roots ?? defaultRoots(plan, cwd);
  const problems: string[] = [];
  const done = (source: ReportSource, batch: CaseBatch, text?: string): ParsedReport => ({
    source,
    cases: uniqueIds(batch.cases),
    loadErrors: batch.loadErrors,
    ...(text === undefined ? {} : { text }),
    ...(problems.length ? { problems } : {}),
  });
  const found = (b: CaseBatch) => b.cases.length > 0 || b.loadErrors.length > 0;

  if (plan.stdout === 'go-json') {
    const go = parseGoJson(output, cwd);
    if (go.events > 0 || found(go)) return done('go-json', go, go.text);
    problems.push('go test printed no JSON events');
  }

  let source: ReportSource | null = null;
  const batch: CaseBatch = { cases: [], loadErrors: [] };
  for (const report of plan.reports) {
    for (const file of await reportFiles(report, cwd)) {
      if (!(await reachableWithoutLinks(file, roots))) continue;
      const content = await readFile(file, 'utf8').catch(() => null);
      if (content === null) continue;
      const name = path.relative(cwd, file).startsWith('..') ? path.basename(file) : path.relative(cwd, file);
      const format = report.format === 'auto' ? sniffFormat(content) : report.format;
      if (!format) {
        problems.push(`${name}: not a report booty can read`);
        continue;
      }
      try {
        const parsed = parseAs(format, content, cwd);
        if (!found(parsed)) continue;
        source ??= SOURCE[format];
        batch.cases.push(...parsed.cases);
        batch.loadErrors.push(...parsed.loadErrors);
      } catch (error) {
        problems.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  if (source) return done(source, await anchorFiles(batch, cwd));

  const dialect = plan.runner ? TAP_DIALECT[plan.runner] : undefined;
  if (plan.stdout === 'tap') {
    const parsed = dialect ? parseTapDialect(output, cwd, dialect) : parseTap(output, cwd);
    if (plan.runner === 'ava') parsed.cases = await placeAvaCases(parsed.cases, cwd);
    if (found(parsed)) return done('tap', parsed);
    problems.push('the runner printed no TAP');
  }
  if (plan.runner === 'uvu') {
    const parsed = parseUvu(output, cwd, uvuDir(plan.args));
    if (found(parsed)) return done('uvu', parsed);
  }
  if (plan.runner === 'ava') {
    const parsed = avaText(output, cwd);
    parsed.cases = await placeAvaCases(parsed.cases, cwd);
    if (found(parsed)) return done('text', parsed);
  }

  if (plan.runner === 'mocha') {
    const doc = mochaJsonIn(output);
    if (doc && isMochaJson(doc)) {
      const parsed = parseMochaJson(doc, cwd);
      if (found(parsed)) return done('mocha-json', parsed);
    }
  }
  if (plan.runner === 'cargo') {
    const parsed = parseLibtest(output, cwd);
    if (found(parsed)) return done('libtest', parsed);
  }
  const text = parseTextOutput(output, cwd);
  return done(found(text) ? 'text' : 'none', text);
}
