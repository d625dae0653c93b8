import fs from 'node:fs';
import path from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evalReport, type RunInfo } from '../../src/eval/eval-report.js';
import { writeReports } from '../../src/eval/report-files.js';
import { failedTask, type TaskResult } from '../../src/eval/task-result.js';
import { tempDir } from '../support/job-harness.js';

// The eval's HTML report in Debian's headless Chromium, offline: it must draw a row per task, the
// totals, the chart with this run and the anchors' figures, and make no request beyond the page
// itself (every request is intercepted and counted). The screenshot goes to test-output/.

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const OUT = path.resolve('test-output');

const task = (id: string, part: Partial<TaskResult>): TaskResult => ({
  ...failedTask(id, [], ''),
  error: null,
  finalState: 'promoted',
  attempts: 1,
  tokens: { input: 2000, output: 300, cacheRead: 0, cacheWrite: 0, total: 2300 },
  costUsd: 0.0105,
  hidden: { command: 'python3 -m pytest', problem: null, failToPass: { 't::new': 'passed' }, passToPass: {} },
  ...part,
});

const results: TaskResult[] = [
  task('a-resolved', {
    resolved: true,
    promoted: true,
    gate: 'promoted-resolved',
    pr: { number: 1, draft: false },
  }),
  task('b-false-promotion', {
    promoted: true,
    gate: 'false-promotion',
    pr: { number: 1, draft: false },
    hidden: {
      command: 'go test ./...',
      problem: null,
      failToPass: { 'pkg > TestNew': 'failed' },
      passToPass: {},
    },
  }),
  task('c-missed', {
    resolved: true,
    gate: 'missed-promotion',
    finalState: 'prOpened',
    reason: 'tests-unknown',
    pr: { number: 1, draft: true },
  }),
  task('d-held', { finalState: 'failed', reason: 'no-changes', attempts: 3, costUsd: 0.034 }),
  {
    ...failedTask('e-<script>alert(1)</script>', [], 'its repository could not be brought in'),
    finalState: 'not-run',
  },
];

const run: RunInfo = {
  version: 1,
  mode: 'replay',
  startedAt: '2026-01-01T00:00:00.000Z',
  wallMs: 61_000,
  concurrency: 4,
  db: '/tmp/eval/booty.db',
  exchanges: 12,
  tasks: results.map((r, i) => ({
    id: r.id,
    jobId: `job-${i}`,
    commit: null,
    wallMs: 10_000 + i,
    jobMs: 8000,
    hiddenMs: 2000,
  })),
};

let browser: Browser;

beforeAll(async () => {
  fs.mkdirSync(OUT, { recursive: true });
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe('the eval report page', () => {
  it('shows every task, the totals and the chart, with no request outside the page', async () => {
    const dir = tempDir('booty-eval-html-');
    const report = evalReport('api', 'claude-sonnet-4-6', results);
    writeReports(dir, report, run);
    const file = path.join(dir, 'report.html');
    const page = await browser.newPage();
    const requests: string[] = [];
    const errors: string[] = [];
    await page.setRequestInterception(true);
    page.on('request', (r) => {
      requests.push(r.url());
      void (r.url() === `file://${file}` ? r.continue() : r.abort());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.setViewport({ width: 1200, height: 900 });
    await page.goto(`file://${file}`, { waitUntil: 'load' });
    const seen = (await page.evaluate(`({
      rows: Array.from(document.querySelectorAll('tr.task-row'), (r) => r.dataset.task),
      falsePromotion: document.querySelectorAll('tr.false-promotion').length,
      runPoint: document.querySelectorAll('svg circle.run').length,
      anchorPoint: document.querySelectorAll('svg circle.anchor-point').length,
      anchorLines: document.querySelectorAll('svg line.anchor').length,
      taskDots: document.querySelectorAll('svg circle.task').length,
      scripts: document.querySelectorAll('script').length,
      heading: document.querySelector('h1').textContent,
    })`)) as Record<string, unknown>;
    expect(seen).toEqual({
      rows: results.map((r) => r.id).sort(),
      falsePromotion: 1,
      runPoint: 1,
      anchorPoint: 1,
      anchorLines: 2,
      taskDots: 5,
      scripts: 0,
      heading: 'booty eval: 2 of 5 resolved',
    });
    expect(requests).toEqual([`file://${file}`]);
    expect(errors).toEqual([]);
    await page.screenshot({ path: path.join(OUT, 'eval-report.png'), fullPage: true });
    await page.close();
  });
});
