import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { BootyError } from '../errors.js';
import { type TaskResult, type TaskRun, type Totals, totalsOf } from './task-result.js';

// What a run reports: results.json (what each task came to: the same bytes when a recorded run is
// replayed), run.json (what differs from run to run: wall times, job ids, the database), and the
// Markdown table people read. report-files.ts writes them with the HTML page.

export const RESULTS_FILE = 'results.json';
export const RUN_FILE = 'run.json';

export interface EvalReport {
  version: 1;
  /** Who answered: the oracle, the null model, or the API (live, or replayed from its recording). */
  answeredBy: AnsweredBy;
  model: string;
  totals: Totals;
  results: TaskResult[];
}

export type AnsweredBy = 'oracle' | 'null' | 'api';

export interface RunInfo {
  version: 1;
  /** oracle, null, model, record or replay. */
  mode: string;
  startedAt: string;
  wallMs: number;
  concurrency: number;
  /** The database holding every job's log: `booty replay <jobId> --db` reads it. */
  db: string;
  exchanges: number;
  tasks: TaskRun[];
}

export function evalReport(answeredBy: AnsweredBy, model: string, results: TaskResult[]): EvalReport {
  return { version: 1, answeredBy, model, totals: totalsOf(results), results };
}

export const reportJson = (report: EvalReport) => `${JSON.stringify(report, null, 2)}\n`;

const StoredReport = z.object({
  version: z.literal(1),
  answeredBy: z.enum(['oracle', 'null', 'api']),
  model: z.string(),
  totals: z.record(z.string(), z.unknown()),
  results: z.array(z.object({ id: z.string() }).passthrough()),
});

/** A report written earlier: its folder, or its results.json. */
export function readReport(where: string): EvalReport {
  const file =
    fs.existsSync(where) && fs.statSync(where).isDirectory() ? path.join(where, RESULTS_FILE) : where;
  try {
    const parsed = StoredReport.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
    return parsed as unknown as EvalReport;
  } catch (err) {
    throw new BootyError('BOOTY_E_USAGE', {
      command: 'eval',
      reason: `${file} is not a booty eval report (${(err as Error).message.split('\n')[0]}); give a report folder or its ${RESULTS_FILE}`,
    });
  }
}

/** Who answered, in words: the oracle and the null model only stand in for one. */
export const answeredWords = (r: Pick<EvalReport, 'answeredBy' | 'model'>) =>
  r.answeredBy === 'api' ? r.model : `the ${r.answeredBy} model`;

export const usd = (n: number) => (n >= 1 ? `$${n.toFixed(2)}` : `$${n.toFixed(4)}`);
export const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** What the gate did, in words. */
export const gateWords: Record<TaskResult['gate'], string> = {
  'promoted-resolved': 'promoted, resolved',
  'false-promotion': 'FALSE PROMOTION',
  'missed-promotion': 'missed promotion',
  'held-unresolved': 'held, unresolved',
};

export function markdownReport(report: EvalReport, run?: RunInfo): string {
  const t = report.totals;
  const wall = new Map(run?.tasks.map((x) => [x.id, x.wallMs]));
  const lines = [
    `## booty eval: ${t.resolved} of ${t.tasks} resolved (${percent(t.resolvedRate)}), ${answeredWords(report)}${run ? ` (${run.mode} mode)` : ''}`,
    '',
    '| task | resolved | promoted | gate | final state | reason | attempts | tokens | cost | wall |',
    '|---|---|---|---|---|---|---:|---:|---:|---:|',
    ...report.results.map((r) =>
      [
        r.id,
        r.resolved ? 'yes' : 'no',
        r.promoted ? 'yes' : 'no',
        gateWords[r.gate],
        r.finalState,
        r.error ? `error: ${r.error}` : (r.reason ?? ''),
        String(r.attempts),
        String(r.tokens.total),
        usd(r.costUsd),
        wall.has(r.id) ? seconds(wall.get(r.id)!) : '',
      ]
        .map(cell)
        .join(' | ')
        .replace(/^/, '| ')
        .concat(' |'),
    ),
    '',
    `- resolved: ${t.resolved}/${t.tasks} (${percent(t.resolvedRate)}); promoted: ${t.promoted}`,
    `- false promotions (promoted, hidden tests fail): ${t.falsePromotions}; missed promotions (resolved, left as a draft): ${t.missedPromotions}`,
    `- cost: ${usd(t.costUsd)} in all, ${usd(t.costPerTask)} a task; ${t.tokens} tokens`,
  ];
  if (t.errors) lines.push(`- tasks the harness could not run: ${t.errors}`);
  if (run)
    lines.push(`- wall time: ${seconds(run.wallMs)} at concurrency ${run.concurrency}; job logs: ${run.db}`);
  return lines.join('\n');
}
