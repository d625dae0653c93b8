import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BootyError } from '../errors.js';
import { builtinTasksFile } from '../eval/builtin-tasks.js';
import { compareReports, comparisonMarkdown } from '../eval/compare-runs.js';
import { jsonProgress, type ProgressPrinter, terminalProgress } from '../eval/eval-progress.js';
import { evalReport, markdownReport, type RunInfo, readReport, reportJson } from '../eval/eval-report.js';
import type { ModelMode } from '../eval/model-endpoint.js';
import { writeReports } from '../eval/report-files.js';
import { runEval } from '../eval/run-eval.js';
import { type EvalTask, readTaskFile } from '../eval/task-format.js';
import { type Command, intOption } from './command.js';
import { shellWord } from './invocation.js';

export const evalCommand: Command = {
  name: 'eval',
  usage: [
    'Usage: booty eval TASKS.jsonl|--builtin (--oracle|--null|--model ID|--record DIR|--replay DIR)',
    '                  [--only ID,...] [--concurrency N] [--dir DIR] [--out DIR] [--json] [--repos DIR]',
    '       booty eval --compare A B [--json]',
    '',
    'Runs each task as a real job on this machine (the local GitHub simulator as the forge, booty',
    "serving as `serve` does), then applies the task's hidden tests to the commit the job left and",
    'runs them in the sandbox. A task is resolved when every FAIL_TO_PASS and PASS_TO_PASS test passes.',
    '',
    '  TASKS.jsonl      one task a line: booty\'s format or SWE-bench\'s (see "Measuring booty" in the README)',
    '  --builtin        the built-in tasks: real fixes from public repositories (JS/TS, Python, Go, Rust)',
    "  --oracle         the model answers with each task's gold patch: every task must be resolved",
    '  --null           the model answers with no change: no task may be resolved',
    '  --model ID       the real API (ANTHROPIC_API_KEY; ANTHROPIC_BASE_URL if set) with this model',
    '  --record DIR     the real API, every exchange written to DIR/cassette.jsonl (with --model ID, or BOOTY_MODEL)',
    '  --replay DIR     answers from DIR/cassette.jsonl only; a request that differs by a byte fails the run',
    '  --only IDS       run only these tasks (comma-separated ids)',
    '  --concurrency N  tasks at once (default 4)',
    '  --max-attempts N attempts a job gets (default: BOOTY_MAX_ATTEMPTS, else 3)',
    "  --dir DIR        the run's state: booty.db with every job's log (for `booty replay`), the forge",
    '                   (default: a new temporary directory; must not hold an earlier run)',
    '  --out DIR        where the reports go (default: DIR/report): results.json, run.json, report.md, report.html',
    "  --repos DIR      local clones of SWE-bench's owner/name repositories (DIR/owner__name)",
    '  --json           print the JSON report on stdout instead of the Markdown table',
    "  --compare A B    two runs' reports (folders or results.json) side by side, regressions first",
    '',
    'Progress: live lines in a terminal, JSON lines on stderr otherwise. Exits 1 when --oracle leaves a',
    'task unresolved or promotes falsely, when --null resolves one, or when --replay meets a request the',
    'cassette does not hold.',
  ].join('\n'),
  options: {
    builtin: { type: 'boolean' },
    oracle: { type: 'boolean' },
    null: { type: 'boolean' },
    model: { type: 'string' },
    record: { type: 'string' },
    replay: { type: 'string' },
    only: { type: 'string' },
    concurrency: { type: 'string' },
    'max-attempts': { type: 'string' },
    dir: { type: 'string' },
    out: { type: 'string' },
    repos: { type: 'string' },
    json: { type: 'boolean' },
    compare: { type: 'boolean' },
  },
  positionals: ['tasks?', 'other?'],
  async run({ values, positionals }, io) {
    const usage = (reason: string) => new BootyError('BOOTY_E_USAGE', { command: 'eval', reason });
    const json = values.json === true;
    if (values.compare) {
      if (positionals.length !== 2) throw usage('--compare takes two reports: booty eval --compare A B');
      const [a, b] = positionals.map((p) => readReport(p)) as [
        ReturnType<typeof readReport>,
        ReturnType<typeof readReport>,
      ];
      io.out(
        json
          ? JSON.stringify({ a: positionals[0], b: positionals[1], tasks: compareReports(a, b) }, null, 2)
          : comparisonMarkdown(a, b, { a: positionals[0]!, b: positionals[1]! }),
      );
      return 0;
    }
    if (positionals.length > 1) throw usage(`unexpected argument ${JSON.stringify(positionals[1])}`);
    const mode = modeOf(values, usage);
    const file = values.builtin ? builtinTasksFile : positionals[0];
    if (!file) throw usage('give a tasks file (TASKS.jsonl) or --builtin');
    if (values.builtin && positionals[0]) throw usage('give a tasks file or --builtin, not both');
    let tasks = readTaskFile(file, { repos: values.repos as string | undefined });
    tasks = only(tasks, values.only as string | undefined, usage);
    const concurrency = intOption('eval', 'concurrency', values.concurrency) ?? 4;
    const maxAttempts = intOption('eval', 'max-attempts', values['max-attempts']);
    const dir = path.resolve(
      (values.dir as string | undefined) ?? fs.mkdtempSync(path.join(os.tmpdir(), 'booty-eval-')),
    );
    const out = path.resolve((values.out as string | undefined) ?? path.join(dir, 'report'));

    const tty = process.stderr.isTTY === true && !json;
    const progress: ProgressPrinter = tty
      ? terminalProgress(process.stderr, tasks.length)
      : jsonProgress((line) => io.err(line), tasks.length);
    const startedAt = new Date().toISOString();
    let run: Awaited<ReturnType<typeof runEval>>;
    try {
      run = await runEval({
        tasks,
        dir,
        mode,
        model: values.model as string | undefined,
        concurrency,
        maxAttempts,
        env: io.env,
        progress,
      });
    } finally {
      progress.stop();
    }
    const answeredBy = mode.kind === 'oracle' || mode.kind === 'null' ? mode.kind : 'api';
    const report = evalReport(answeredBy, run.model, run.results);
    const info: RunInfo = {
      version: 1,
      mode: mode.kind,
      startedAt,
      wallMs: run.wallMs,
      concurrency,
      db: run.db,
      exchanges: run.exchanges,
      tasks: run.tasks,
    };
    const files = writeReports(out, report, info);
    io.out(json ? reportJson(report).trimEnd() : markdownReport(report, info));
    if (!json) {
      io.out(`\nreports: ${files.map((f) => path.basename(f)).join(', ')} in ${out}`);
      const first = run.tasks.find((t) => t.jobId);
      if (first) io.out(`replay a job: ${io.self} replay ${first.jobId} --db ${shellWord(run.db)}`);
    }
    return verdict(mode, report, run.misses, io.err);
  },
};

function modeOf(values: Record<string, unknown>, usage: (r: string) => BootyError): ModelMode {
  const given = (['oracle', 'null', 'record', 'replay'] as const).filter(
    (k) => values[k] !== undefined && values[k] !== false,
  );
  const model = values.model !== undefined;
  if (given.length > 1 || (model && given.some((g) => g !== 'record')))
    throw usage(
      `give one model mode, not ${[...given, ...(model ? ['model'] : [])].map((g) => `--${g}`).join(' and ')}`,
    );
  const [kind] = given;
  if (kind === 'oracle' || kind === 'null') return { kind };
  if (kind === 'record' || kind === 'replay') return { kind, dir: path.resolve(values[kind] as string) };
  if (model) return { kind: 'model' };
  throw usage('give a model mode: --oracle, --null, --model ID, --record DIR or --replay DIR');
}

function only(tasks: EvalTask[], list: string | undefined, usage: (r: string) => BootyError): EvalTask[] {
  if (!list) return tasks;
  const ids = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = ids.filter((id) => !tasks.some((t) => t.id === id));
  if (unknown.length) throw usage(`--only names tasks the file does not have: ${unknown.join(', ')}`);
  return tasks.filter((t) => ids.includes(t.id));
}

/** The exit code: the harness checks (oracle, null) and a faithful replay are promises to keep. */
function verdict(
  mode: ModelMode,
  report: ReturnType<typeof evalReport>,
  misses: { n: number; method: string; path: string; reason: string }[],
  err: (line: string) => void,
): number {
  const t = report.totals;
  if (misses.length) {
    for (const m of misses.slice(0, 5)) {
      const miss = new BootyError('BOOTY_E_EVAL_CASSETTE_MISS', { ...m, dir: (mode as { dir: string }).dir });
      err(`booty eval: ${miss.message} (${miss.code})`);
    }
    if (misses.length > 5) err(`booty eval: and ${misses.length - 5} more requests not in the cassette`);
    return 1;
  }
  if (mode.kind === 'oracle' && (t.resolved < t.tasks || t.falsePromotions > 0)) {
    const left = report.results.filter((r) => !r.resolved).map((r) => r.id);
    err(
      `booty eval --oracle: ${left.length} task(s) not resolved (${left.join(', ')}) and ${t.falsePromotions} false promotion(s): the harness or the tasks are broken`,
    );
    return 1;
  }
  if (mode.kind === 'null' && t.resolved > 0) {
    const hit = report.results.filter((r) => r.resolved).map((r) => r.id);
    err(
      `booty eval --null: ${hit.length} task(s) resolved with no change (${hit.join(', ')}): their hidden tests do not test the fix`,
    );
    return 1;
  }
  return 0;
}
