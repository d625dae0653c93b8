import fs from 'node:fs';
import path from 'node:path';
import {
  type EvalReport,
  markdownReport,
  RESULTS_FILE,
  RUN_FILE,
  type RunInfo,
  reportJson,
} from './eval-report.js';
import { renderHtmlReport } from './report-html.js';

// A run's reports in one folder: results.json, run.json, report.md and report.html.

export function writeReports(dir: string, report: EvalReport, run: RunInfo): string[] {
  fs.mkdirSync(dir, { recursive: true });
  const files: [string, string][] = [
    [RESULTS_FILE, reportJson(report)],
    [RUN_FILE, `${JSON.stringify(run, null, 2)}\n`],
    ['report.md', `${markdownReport(report, run)}\n`],
    ['report.html', renderHtmlReport(report, run)],
  ];
  for (const [name, text] of files) fs.writeFileSync(path.join(dir, name), text);
  return files.map(([name]) => path.join(dir, name));
}
