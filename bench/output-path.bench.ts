// output-path: 1 MB of hostile test output read the whole way booty reads a run's output, as the
// test effect and the renderers do: the text fallback and a report (the same output as go test
// -json events) parsed, the output
// cleaned (settled, ANSI-free, the workspace as `.`, secrets scrubbed), each case's name and
// message cleaned, the run judged and its failure classed, then rendered as the comment and the
// PR body show it and fenced for the refine prompt. The output is made of the lines that made each
// reader's former regex backtrack: long lines without CR, open escape sequences, pytest ids of many
// `::`, vitest headers full of spaces, frames through many node_modules/, near misses of each
// failure class, runs of blank lines. The report wraps each of the output's 53,000 lines in a
// JSON event, so it is nearly five times the output's size: the speed counts every byte read, the
// output's and the report's. The baseline is the floor any reader pays for the same bytes: the
// text split into lines, and the report split and parsed as JSON line by line.
import { fenceTestOutput } from '../src/claude/untrusted-text.js';
import type { TestCase, TestRun } from '../src/events/effect-results.js';
import { classifyRun } from '../src/refine/failure-class.js';
import { cleanOutput } from '../src/sandbox/clean-output.js';
import { tailOf } from '../src/sandbox/output-cap.js';
import { totalsOf } from '../src/sandbox/reports/case-list.js';
import { parseGoJson } from '../src/sandbox/reports/go-json.js';
import { parseTextOutput } from '../src/sandbox/reports/text-fallback.js';
import { judge } from '../src/sandbox/test-verdict.js';
import { scrubberOf } from '../src/secrets/scrub.js';
import { failureDetails } from '../src/views/attempt-report.js';
import { type BenchResult, median, ratio, round } from './bench-result.js';

const MB = 1024 * 1024;
const RUNS = 5;
const CWD = '/w/jobs/j1';
const HOME = '/w/homes/j1';
const SECRET = 'hunter2-secret-value';

/** One piece of each kind, repeated to a share of the megabyte. */
const fill = (unit: string, bytes: number) => unit.repeat(Math.max(1, Math.floor(bytes / unit.length)));

function hostileOutput(): string {
  const share = MB / 16;
  const pieces = [
    ` FAIL  test/a.test.ts > suite > fails\nAssertionError: expected '${'v'.repeat(share)}' to equal 'w'\n`,
    `${fill('progress 10%\r', share)}done\n`,
    `${fill('\u001b[;', share / 2)}\n${fill('\u001b]0;title', share / 2)}\n`,
    `${fill(`tests/a.py${'::x'.repeat(40)} x\n`, share)}FAILED tests/a.py::test_p[1] - boom\n`,
    ` FAIL  test/b.test.ts > s${' '.repeat(share)}x > t\n`,
    `✓ test/c.test.ts > s > passes${' '.repeat(share)}3 ms\n`,
    `    at l${fill('node_modules/e', share)}(\n`,
    `▶ s${fill(' # SKIP▶', share)}\u2028\n`,
    `${fill('expected x ', share)}\n to be\n`,
    `${fill('Expected:', share)}\n`,
    `${'\n'.repeat(share / 2)}${' \n'.repeat(share / 4)}x\n`,
    `${fill('panicked at', share)}\n`,
    `${fill("Cannot find module 'u'r", share)}\n`,
    `${fill(`${CWD}/src/a.js ${HOME}/.npmrc ghp_${'A'.repeat(36)} ${SECRET} `, share)}\n`,
    `${fill('`a', share)}\n${fill('/lib/python3.1/x', share / 2)}\tin f\n`,
    `${fill('\\x1b[1;2\n', share)}`,
  ];
  return pieces.join('').slice(0, MB);
}

/** The same output as `go test -json` reports it: one event per line, in a failing test. */
const goJsonOf = (output: string) =>
  [
    ...output
      .split('\n')
      .map((line) =>
        JSON.stringify({ Action: 'output', Package: 'example.com/m', Test: 'TestX', Output: `${line}\n` }),
      ),
    JSON.stringify({ Action: 'fail', Package: 'example.com/m', Test: 'TestX', Elapsed: 0.1 }),
    JSON.stringify({ Action: 'pass', Package: 'example.com/m', Test: 'TestY', Elapsed: 0.1 }),
  ].join('\n');

/** The output the whole way, as runTests and the renderers read it; returns what it rendered. */
function readAll(output: string, goJson: string): string {
  const scrub = scrubberOf(() => [SECRET]);
  const clean = (t: string) => cleanOutput(t, { workspace: CWD, home: HOME, scrub });
  const fromText = parseTextOutput(output, CWD);
  const fromReport = parseGoJson(goJson, CWD);
  const cleaned = clean(output);
  const cases = [...fromText.cases, ...fromReport.cases].map(
    (c): TestCase => ({
      ...c,
      id: clean(c.id).slice(0, 500),
      name: clean(c.name).slice(0, 500),
      file: c.file === null ? null : clean(c.file).slice(0, 500),
      message: c.message === null ? null : clean(c.message).slice(0, 2_000),
    }),
  );
  const loadErrors = fromText.loadErrors.map((e) => ({
    file: clean(e.file).slice(0, 500),
    message: clean(e.message).slice(0, 2_000),
  }));
  const facts = {
    command: 'npm test',
    ran: true,
    exitCode: 1,
    signal: null,
    timedOut: false,
    durationMs: 1_000,
    outputTail: tailOf(cleaned, 10_000),
    source: 'text' as const,
    cases,
    loadErrors,
    totals: totalsOf(cases),
    sandbox: 'bwrap' as const,
  };
  const judgement = judge({ baseline: null, run: facts, touched: [] });
  const run: TestRun = {
    ...facts,
    at: 0,
    broken: null,
    ...judgement,
    passed: judgement.verdict === 'pass',
  };
  run.failureClass = classifyRun(run, { baseline: null, changedPaths: [] });
  return `${failureDetails(run, 'What failed', { open: true })}\n${fenceTestOutput(cleaned, 20_000)}`;
}

/**
 * The least any reader of this output pays, without a regex: the text split into lines, and the
 * report split into its lines, each parsed as JSON (go test -json is read event by event).
 */
function readFloor(output: string, goJson: string): number {
  let n = output.split('\n').length;
  for (const line of goJson.split('\n')) n += (JSON.parse(line) as { Output?: string }).Output?.length ?? 0;
  return n;
}

/** CPU seconds the call took: on a machine shared with other work, its wall time mostly measures
 * the others (the split, a millisecond long, is rarely interrupted; the path is). */
const seconds = (f: () => unknown) => {
  const start = process.cpuUsage();
  f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
};

export default async function run(): Promise<BenchResult[]> {
  const output = hostileOutput();
  const goJson = goJsonOf(output);
  const megabytes = (Buffer.byteLength(output) + Buffer.byteLength(goJson)) / MB;
  const rendered = readAll(output, goJson);
  // The path read what it was given: the secret never reaches what is rendered.
  if (rendered.includes(SECRET) || !rendered.includes('What failed'))
    throw new Error('the output was not read');
  const path = median(Array.from({ length: RUNS }, () => seconds(() => readAll(output, goJson))));
  const floor = median(Array.from({ length: RUNS }, () => seconds(() => readFloor(output, goJson))));
  const value = round(megabytes / path);
  const baseline = round(megabytes / floor);
  return [
    {
      name: 'output-path',
      metric: 'hostile output and its report read through clean, parse, classify, scrub and render',
      value,
      baseline,
      ratio: ratio(value, baseline),
      unit: 'MB/s of CPU time, output and report (baseline: the floor, the text split into lines and the report parsed line by line)',
      // Beyond the floor's work the path runs the text readers (one per test runner's format), the
      // report's reader, the cleaning and the rendering, each one linear pass: the whole within
      // about 6.7 times the floor. A regex that backtracks on one of these lines costs far more.
      goal: 'ratio >= 0.15',
    },
  ];
}
