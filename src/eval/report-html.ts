import { escapeHtml } from '../text.js';
import type { EvalReport, RunInfo } from './eval-report.js';
import { answeredWords, gateWords, percent, usd } from './eval-report.js';

// The eval's one-page report: totals, a chart of cost a task against the share resolved with the
// anchors' published figures as reference points, and a row per task. Self-contained: inline CSS
// and SVG, no script, nothing fetched, so it opens from a file or an artifact store as it is.

/** Published figures to read a run against (see the README's "Measuring booty"). */
export const ANCHORS = {
  point: { label: 'OpenHands Index, claude-opus-4-6 (SWE-bench Verified)', costUsd: 0.77, resolved: 0.768 },
  floor: { label: 'mini-swe-agent: over 74% (cost not published)', resolved: 0.74 },
  cost: { label: 'Open SWE: $12 for one 45-minute task (open-swe #876)', costUsd: 12 },
};

const W = 640;
const H = 320;
const PAD = { left: 56, right: 16, top: 16, bottom: 44 };
const MIN_USD = 0.001;
const MAX_USD = 100;

const x = (usdValue: number) => {
  const v = Math.min(MAX_USD, Math.max(MIN_USD, usdValue));
  const span = Math.log10(MAX_USD) - Math.log10(MIN_USD);
  return PAD.left + ((Math.log10(v) - Math.log10(MIN_USD)) / span) * (W - PAD.left - PAD.right);
};
const y = (rate: number) => PAD.top + (1 - rate) * (H - PAD.top - PAD.bottom);
const n = (v: number) => v.toFixed(1);

function chart(report: EvalReport): string {
  const t = report.totals;
  const parts: string[] = [];
  for (const tick of [0.001, 0.01, 0.1, 1, 10, 100]) {
    parts.push(
      `<line class="grid" x1="${n(x(tick))}" x2="${n(x(tick))}" y1="${PAD.top}" y2="${H - PAD.bottom}"/>`,
      `<text class="tick" x="${n(x(tick))}" y="${H - PAD.bottom + 16}" text-anchor="middle">$${tick}</text>`,
    );
  }
  for (const rate of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(
      `<line class="grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${n(y(rate))}" y2="${n(y(rate))}"/>`,
      `<text class="tick" x="${PAD.left - 6}" y="${n(y(rate) + 4)}" text-anchor="end">${rate * 100}%</text>`,
    );
  }
  parts.push(
    `<text class="axis" x="${(PAD.left + W - PAD.right) / 2}" y="${H - 8}" text-anchor="middle">cost a task (US dollars, log scale)</text>`,
    `<text class="axis" transform="translate(14 ${(PAD.top + H - PAD.bottom) / 2}) rotate(-90)" text-anchor="middle">resolved</text>`,
  );
  const { point, floor, cost } = ANCHORS;
  parts.push(
    `<line class="anchor" x1="${PAD.left}" x2="${W - PAD.right}" y1="${n(y(floor.resolved))}" y2="${n(y(floor.resolved))}"><title>${escapeHtml(floor.label)}</title></line>`,
    `<text class="anchor-label" x="${PAD.left + 4}" y="${n(y(floor.resolved) + 14)}">${escapeHtml(floor.label)}</text>`,
    `<line class="anchor" x1="${n(x(cost.costUsd))}" x2="${n(x(cost.costUsd))}" y1="${PAD.top}" y2="${H - PAD.bottom}"><title>${escapeHtml(cost.label)}</title></line>`,
    `<text class="anchor-label" x="${n(x(cost.costUsd) - 4)}" y="${PAD.top + 12}" text-anchor="end">Open SWE, one task</text>`,
    `<circle class="anchor-point" cx="${n(x(point.costUsd))}" cy="${n(y(point.resolved))}" r="6"><title>${escapeHtml(point.label)}: ${percent(point.resolved)} at ${usd(point.costUsd)}</title></circle>`,
    `<text class="anchor-label" x="${n(x(point.costUsd) + 9)}" y="${n(y(point.resolved) - 8)}">OpenHands Index</text>`,
  );
  // Each task at its cost, at the top when resolved and at the bottom when not.
  report.results.forEach((r, i) => {
    // Spread a little into the plot, so dots of the same cost stay apart and none leaves it.
    const spread = (i % 5) * 3;
    parts.push(
      `<circle class="task ${r.resolved ? 'yes' : 'no'}" cx="${n(x(r.costUsd))}" cy="${n(r.resolved ? y(1) + spread : y(0) - spread)}" r="3"><title>${escapeHtml(r.id)}: ${usd(r.costUsd)}, ${r.resolved ? 'resolved' : 'not resolved'}</title></circle>`,
    );
  });
  parts.push(
    `<circle class="run" cx="${n(x(t.costPerTask))}" cy="${n(y(t.resolvedRate))}" r="8"><title>this run: ${percent(t.resolvedRate)} at ${usd(t.costPerTask)} a task</title></circle>`,
    `<text class="run-label" x="${n(x(t.costPerTask) + 11)}" y="${n(y(t.resolvedRate) + 4)}">this run (${escapeHtml(answeredWords(report))})</text>`,
  );
  return `<svg class="chart" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="cost a task against the share resolved">${parts.join('')}</svg>`;
}

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #1f2328; background: #fff; }
h1 { font-size: 20px; margin: 0 0 4px; }
.sub { color: #59636e; margin: 0 0 16px; }
.totals { display: flex; flex-wrap: wrap; gap: 12px; margin: 0 0 20px; padding: 0; list-style: none; }
.totals li { border: 1px solid #d1d9e0; border-radius: 6px; padding: 8px 12px; min-width: 110px; }
.totals b { display: block; font-size: 18px; }
.totals .bad b { color: #cf222e; }
table { border-collapse: collapse; width: 100%; margin-top: 20px; }
th, td { border-bottom: 1px solid #d1d9e0; padding: 5px 8px; text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.false-promotion td { background: #ffebe9; }
tr.missed-promotion td { background: #fff8c5; }
.yes { color: #1a7f37; } .no { color: #59636e; }
svg .grid { stroke: #eaeef2; } svg .tick, svg .axis { fill: #59636e; font-size: 11px; }
svg .anchor { stroke: #8250df; stroke-dasharray: 4 3; } svg .anchor-label { fill: #8250df; font-size: 11px; }
svg .anchor-point { fill: #8250df; } svg .run { fill: #0969da; } svg .run-label { fill: #0969da; font-size: 12px; font-weight: 600; }
svg circle.task.yes { fill: #1a7f37; opacity: .6; } svg circle.task.no { fill: #cf222e; opacity: .6; }
code { font-size: 12px; }
`;

export function renderHtmlReport(report: EvalReport, run?: RunInfo): string {
  const t = report.totals;
  const wall = new Map(run?.tasks.map((x) => [x.id, x.wallMs]));
  const box = (label: string, value: string, bad = false) =>
    `<li${bad ? ' class="bad"' : ''}><b>${escapeHtml(value)}</b>${escapeHtml(label)}</li>`;
  const rows = report.results.map((r) => {
    const tests = [...Object.entries(r.hidden.failToPass), ...Object.entries(r.hidden.passToPass)];
    const failing = tests.filter(([, s]) => s !== 'passed').map(([id, s]) => `${id} (${s})`);
    const why = r.error ?? r.hidden.problem ?? (failing.length ? `not passing: ${failing.join(', ')}` : '');
    return `<tr class="task-row ${r.gate}" data-task="${escapeHtml(r.id)}"><td>${escapeHtml(r.id)}</td><td class="${r.resolved ? 'yes' : 'no'}">${r.resolved ? 'yes' : 'no'}</td><td>${r.promoted ? 'yes' : 'no'}</td><td>${escapeHtml(gateWords[r.gate])}</td><td>${escapeHtml(r.finalState)}${r.reason ? ` <small>(${escapeHtml(r.reason)})</small>` : ''}</td><td class="num">${r.attempts}</td><td class="num">${r.tokens.total}</td><td class="num">${usd(r.costUsd)}</td><td class="num">${wall.has(r.id) ? `${(wall.get(r.id)! / 1000).toFixed(1)} s` : ''}</td><td><small>${escapeHtml(why)}</small></td></tr>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>booty eval: ${t.resolved}/${t.tasks} resolved</title><style>${STYLE}</style></head>
<body>
<h1>booty eval: ${t.resolved} of ${t.tasks} resolved</h1>
<p class="sub">answered by ${escapeHtml(answeredWords(report))}${run ? ` (${escapeHtml(run.mode)} mode), ${(run.wallMs / 1000).toFixed(1)} s at concurrency ${run.concurrency}` : ''}</p>
<ul class="totals">
${box('resolved', percent(t.resolvedRate))}${box('promoted', String(t.promoted))}${box('false promotions', String(t.falsePromotions), t.falsePromotions > 0)}${box('missed promotions', String(t.missedPromotions), t.missedPromotions > 0)}${box('cost in all', usd(t.costUsd))}${box('cost a task', usd(t.costPerTask))}${box('tokens', String(t.tokens))}
</ul>
${chart(report)}
<table><thead><tr><th>task</th><th>resolved</th><th>promoted</th><th>gate</th><th>final state</th><th class="num">attempts</th><th class="num">tokens</th><th class="num">cost</th><th class="num">wall</th><th>hidden tests</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table>
${run ? `<p class="sub">Every job's log is in <code>${escapeHtml(run.db)}</code>: <code>booty replay &lt;jobId&gt; --db ${escapeHtml(run.db)}</code>.</p>` : ''}
</body></html>
`;
}
