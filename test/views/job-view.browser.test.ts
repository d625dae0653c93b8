import fs from 'node:fs';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { runDemo } from '../../src/demo/run-demo.js';
import { readTimeline } from '../../src/engine/timeline.js';
import { startInspectorServer } from '../../src/gateway/inspector-server.js';
import { openStore } from '../../src/main/open-store.js';
import { renderJobView } from '../../src/views/job-view.js';
import { startTestServer } from '../gateway/gateway-harness.js';
import { tempDir } from '../support/job-harness.js';

// The job view in a real browser: Debian's headless Chromium opens the page `booty replay --html`
// wrote for a refine demo job, and the served dashboard. The job's path must be drawn, the timeline
// must hold every event, and the page must run without a console error, offline. Screenshots go to
// test-output/ for CI to keep.

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const OUT = path.resolve('test-output');

let browser: Browser;
let job: { jobId: string; db: string; events: string[]; states: string[]; final: string };

beforeAll(async () => {
  const dir = tempDir('booty-view-');
  const result = await runDemo({ scenario: 'refine', dir });
  const store = openStore(result.db);
  const rows = await store.readStream(result.jobId);
  await store.close();
  job = {
    jobId: result.jobId,
    db: result.db,
    events: rows.map((r) => r.type),
    states: [...new Set(rows.map((r) => r.state!))],
    final: result.finalState,
  };
  fs.mkdirSync(OUT, { recursive: true });
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

/** Opens a URL offline, collecting console errors and failed requests. */
async function open(url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
  await page.setViewport({ width: 1400, height: 1000 });
  await page.goto(url, { waitUntil: 'load' });
  return { page, errors };
}

/** What the page shows, read in the page (as source text: the tests' types know no DOM). */
type Drawn = { visited: string[]; current?: string; taken: number; rows: string[] };
async function drawn(page: Page): Promise<Drawn> {
  return (await page.evaluate(`({
    visited: Array.from(document.querySelectorAll('g.state.visited'), (g) => g.dataset.state),
    current: document.querySelector('g.state.current')?.dataset.state,
    taken: document.querySelectorAll('path.edge.taken').length,
    rows: Array.from(document.querySelectorAll('tr.event'), (r) => r.querySelector('td:nth-child(4)').textContent),
  })`)) as Drawn;
}

describe('the job view', () => {
  it('draws the refine job’s path and every event, in a page that needs nothing from outside', async () => {
    const file = path.join(tempDir('booty-view-html-'), 'job.html');
    const out: string[] = [];
    const code = await main(['replay', job.jobId, '--html', file, '--db', job.db], {
      out: (t) => out.push(t),
      err: (t) => out.push(t),
      env: {},
    });
    expect(code).toBe(0);
    // No script at all, and nothing fetched from anywhere (an svg namespace is a name, not a request).
    expect(fs.readFileSync(file, 'utf8')).not.toMatch(/<script|(?:src|href)="https?:/);

    const { page, errors } = await open(`file://${file}`);
    const seen = await drawn(page);
    expect(new Set(seen.visited)).toEqual(new Set(job.states));
    expect(seen.visited).toContain('refining');
    expect(seen.current).toBe(job.final);
    expect(seen.rows).toHaveLength(job.events.length);
    expect(seen.taken).toBeGreaterThanOrEqual(job.states.length - 1);
    expect(errors).toEqual([]);
    await page.screenshot({ path: path.join(OUT, 'job-view.png'), fullPage: true });
  });

  it('is served with the job list, live, on a loopback server', async () => {
    const s = await startTestServer({ db: job.db });
    try {
      const list = await open(`${s.url}/`);
      const links = (await list.page.evaluate(
        `Array.from(document.querySelectorAll('tr.job a'), (a) => a.getAttribute('href'))`,
      )) as string[];
      expect(links).toContain(`/jobs/${job.jobId}/view`);
      const view = await open(`${s.url}/jobs/${job.jobId}/view`);
      const seen = await drawn(view.page);
      expect(seen.current).toBe(job.final);
      expect(seen.rows).toHaveLength(job.events.length);
      await view.page.screenshot({ path: path.join(OUT, 'dashboard-job.png'), fullPage: true });
      expect([...list.errors, ...view.errors]).toEqual([]);
      await list.page.close();
      await view.page.close();
    } finally {
      await s.close();
    }
  });

  it('falls back from the Stately inspector, which this machine cannot reach, to the local view', async () => {
    const store = openStore(job.db);
    const timeline = await readTimeline(store, job.jobId);
    await store.close();
    const server = await startInspectorServer({ localView: renderJobView(timeline), fallbackMs: 1_000 });
    try {
      const page = await browser.newPage();
      await page.goto(server.url, { waitUntil: 'domcontentloaded' });
      expect(await page.evaluate('document.querySelector(".note").textContent')).toContain('stately.ai');
      await page.waitForFunction('location.pathname === "/view" && document.querySelector("svg.machine")', {
        timeout: 15_000,
      });
      const seen = await drawn(page);
      expect(seen.current).toBe(job.final);
      expect(seen.rows).toHaveLength(job.events.length);
      await page.close();
    } finally {
      await server.close();
    }
  });
});
