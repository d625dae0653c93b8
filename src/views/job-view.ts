import type { Timeline } from '../engine/timeline.js';
import { restingGraph } from '../machines/diagram.js';
import { escapeHtml as esc } from '../text.js';
import { repeatedWords } from './attempt-report.js';
import { BOX, layoutPath } from './path-layout.js';
import { asked, attemptPlace, explanationOf, roundResult } from './round-record.js';

// One job on one page that needs nothing from outside: the machine drawn as SVG with the job's
// path on it (states visited, the current or final one marked, the transitions taken), the
// timeline, and each attempt's tests. The page is HTML and CSS only; a served page may add one
// line of script for live reloads. `booty replay --html` writes it, `booty serve` serves it.

/**
 * The job's own path through the machine: the states it reached, the one it stands in, and the
 * transitions it took, large enough to read, each line on a route of its own (path-layout.ts). The
 * states it never reached are folded away below.
 */
export function pathDiagram(path: readonly string[]): string {
  const graph = restingGraph();
  const states = [...new Set(path)];
  const current = path.at(-1);
  const taken = [...new Set(path.slice(1).map((to, i) => `${path[i]}>${to}`))]
    .map((key) => key.split('>') as [string, string])
    .filter(([from, to]) => from !== to);
  const { place, edges, width, height } = layoutPath(states, taken);
  const n = (x: number) => String(Math.round(x * 10) / 10);
  const lines = edges.map(({ from, to, points }) => {
    const d = points.map((p, i) => `${i ? 'L' : 'M'}${n(p.x)},${n(p.y)}`).join(' ');
    return `<path class="edge taken" data-edge="${esc(`${from}>${to}`)}" d="${d}" marker-end="url(#arrow)"/>`;
  });
  const types = new Map(graph.states.map((s) => [s.name, s.type]));
  const boxes = states.map((name) => {
    const p = place.get(name)!;
    const cls = ['state', types.get(name) ?? '', 'visited', name === current ? 'current' : '']
      .filter(Boolean)
      .join(' ');
    return `<g class="${cls}" data-state="${esc(name)}"><rect x="${n(p.x)}" y="${n(p.y)}" width="${BOX.w}" height="${BOX.h}" rx="8"/><text x="${n(p.x + BOX.w / 2)}" y="${n(p.y + BOX.h / 2 + 5)}">${esc(name)}</text></g>`;
  });
  const rest = graph.states.map((s) => s.name).filter((s) => !states.includes(s));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" class="machine" viewBox="0 0 ${n(width)} ${n(height)}" style="max-width:${n(width)}px" role="img" aria-label="this job's path through the machine">`,
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker></defs>',
    ...lines,
    ...boxes,
    '</svg>',
    rest.length
      ? `<details class="rest"><summary>The rest of the machine: ${rest.length} states this job did not reach</summary><p>${rest.map((s) => `<code>${esc(s)}</code>`).join(', ')}. <code>booty machine --mermaid</code> draws the whole machine.</p></details>`
      : '',
  ].join('\n');
}

const CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1f2328;background:#fff}
h1{font-size:20px;margin:0 0 4px} .sub{color:#59636e;margin-bottom:16px}
.machine{width:100%;height:auto;border:1px solid #d1d9e0;border-radius:8px;background:#f6f8fa}
.state rect{fill:#fff;stroke:#d1d9e0;stroke-width:1.5} .state text{text-anchor:middle;font-size:15px;fill:#59636e}
.state.visited rect{fill:#dafbe1;stroke:#1a7f37} .state.visited text{fill:#1f2328}
.state.current rect{stroke:#0969da;stroke-width:3} .state.final.current.visited rect{fill:#ddf4ff}
.edge{fill:none;stroke:#d1d9e0;stroke-width:1;stroke-linejoin:round} .edge.taken{stroke:#1a7f37;stroke-width:2}
marker path{fill:#8c959f}
table{border-collapse:collapse;margin:12px 0 24px;min-width:60%} th,td{border-bottom:1px solid #d1d9e0;padding:4px 10px;text-align:left;vertical-align:top}
th{background:#f6f8fa} td.num{text-align:right;font-variant-numeric:tabular-nums} code{font-size:12px}
.pass{color:#1a7f37} .fail{color:#d1242f} .unknown{color:#9a6700}`;

/** For a served page: reload when the server says the log changed. */
const liveReload = (url?: string) =>
  url ? `<script>new EventSource(${JSON.stringify(url)}).onmessage=()=>location.reload()</script>` : '';

const time = (at: number) =>
  new Date(at)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z');

/** The whole page for one job. `live` is the URL of its event stream, for a served page. */
export function renderJobView(timeline: Timeline, options: { live?: string } = {}): string {
  const path = [timeline.entries[0]?.state ?? 'preparing'];
  for (const e of timeline.entries.slice(1)) if (e.state !== path.at(-1)) path.push(e.state);
  const rows = timeline.entries.map((e) => {
    const tokens = e.tokens
      ? e.tokens.input + e.tokens.output + e.tokens.cacheRead + e.tokens.cacheWrite
      : '';
    return `<tr class="event" data-seq="${e.seq}"><td class="num">${e.seq}</td><td>${esc(time(e.at))}</td><td class="num">+${e.deltaMs} ms</td><td>${esc(e.label)}</td><td><code>${esc(e.state)}</code></td><td class="num">${e.attempt}</td><td class="num">${tokens}</td></tr>`;
  });
  const ctx = timeline.snapshot.context;
  const attempts = ctx.attempts.map((a) => {
    const t = a.test;
    const verdict = t
      ? t.verdict
      : a.repeated !== undefined
        ? repeatedWords(a.repeated)
        : a.applied
          ? 'not tested yet'
          : 'nothing applied';
    const totals = t ? `${t.totals.passed} passed, ${t.totals.failed} failed of ${t.totals.total}` : '';
    const reasons = t?.reasons.map((r) => esc(r.message)).join('<br>') ?? '';
    // Named as the comment names it: within its round, never "attempt 5 of 3".
    const { round, k } = attemptPlace(a.n, ctx.conversation.rounds);
    const name = round === null ? String(k) : `round ${round}, ${k}`;
    return `<tr class="attempt"><td class="num">${name}</td><td>${a.files.map((f) => `<code>${esc(f)}</code>`).join('<br>')}</td><td class="${t ? esc(t.verdict) : 'untested'}">${esc(verdict)}</td><td>${esc(totals)}</td><td>${reasons}</td></tr>`;
  });
  // Each round: what asked for it, what it left on the PR, and what booty said of it.
  const rounds = ctx.conversation.rounds.map((r) => {
    const said = r.result === 'pushed' ? explanationOf(ctx, r.n) : (r.answer?.text ?? r.note);
    const result = roundResult(r).replaceAll('`', '');
    return `<tr class="round"><td class="num">${r.n}</td><td>${esc(r.triggers.map(asked).join('; ').replaceAll('`', ''))}</td><td>${esc(result)}</td><td>${esc(said ?? '')}</td></tr>`;
  });
  const roundsTable = rounds.length
    ? `<h2>Rounds</h2>
<table class="rounds"><thead><tr><th>round</th><th>asked</th><th>pushed</th><th>replied</th></tr></thead>
<tbody>${rounds.join('\n')}</tbody></table>`
    : '';
  const baseline = ctx.baseline;
  const live = liveReload(options.live);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>booty job ${esc(timeline.jobId)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><style>${CSS}</style></head>
<body>
<h1>Job <code>${esc(timeline.jobId)}</code>: ${esc(timeline.finalState)}</h1>
<div class="sub">${esc(timeline.repo)}#${timeline.issue} · ${timeline.entries.length} events · log ${timeline.verified ? 'verified' : 'does not verify'}${timeline.snapshot.context.outcome ? ` · ${esc(timeline.snapshot.context.outcome.message)}` : ''}</div>
${pathDiagram(path)}
<h2>Timeline</h2>
<table class="timeline"><thead><tr><th>#</th><th>time</th><th>delta</th><th>event</th><th>state</th><th>attempt</th><th>tokens</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>
<h2>Tests</h2>
<p>Baseline: ${baseline ? `${esc(baseline.verdict)}, ${baseline.totals.passed} passed, ${baseline.totals.failed} failed of ${baseline.totals.total}` : 'not run yet'}</p>
<table class="attempts"><thead><tr><th>attempt</th><th>files</th><th>verdict</th><th>tests</th><th>why</th></tr></thead>
<tbody>${attempts.join('\n')}</tbody></table>
${roundsTable}
${live}
</body></html>
`;
}

/** The served list of jobs, newest first, each linking to its view. */
export function renderJobList(
  jobs: { jobId: string; repo: string; issue: number; state: string; updatedAt: number }[],
  options: { live?: string } = {},
): string {
  const rows = jobs.map(
    (j) =>
      `<tr class="job"><td><a href="/jobs/${encodeURIComponent(j.jobId)}/view"><code>${esc(j.jobId)}</code></a></td><td>${esc(j.repo)}#${j.issue}</td><td><code>${esc(j.state)}</code></td><td>${esc(time(j.updatedAt))}</td></tr>`,
  );
  const live = liveReload(options.live);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>booty jobs</title><link rel="icon" href="data:,"><style>${CSS}</style></head>
<body><h1>booty jobs</h1><div class="sub">${jobs.length} jobs, newest first</div>
<table class="jobs"><thead><tr><th>job</th><th>issue</th><th>state</th><th>updated</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>${live}</body></html>
`;
}
