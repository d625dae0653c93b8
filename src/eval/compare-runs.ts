import { answeredWords, type EvalReport, gateWords, percent, usd } from './eval-report.js';
import type { TaskResult } from './task-result.js';

// `booty eval --compare A B`: two runs side by side, task by task. What got worse comes first
// (resolved in A and not in B, or a new false promotion), then what got better, then tasks only one
// run has, then the rest.

export type Change = 'regression' | 'improvement' | 'only-in-a' | 'only-in-b' | 'same';

export interface ComparedTask {
  id: string;
  change: Change;
  a: TaskResult | null;
  b: TaskResult | null;
}

const ORDER: Change[] = ['regression', 'improvement', 'only-in-a', 'only-in-b', 'same'];

function changeOf(a: TaskResult | null, b: TaskResult | null): Change {
  if (!b) return 'only-in-a';
  if (!a) return 'only-in-b';
  const newFalsePromotion = b.gate === 'false-promotion' && a.gate !== 'false-promotion';
  if ((a.resolved && !b.resolved) || newFalsePromotion) return 'regression';
  if ((!a.resolved && b.resolved) || (a.gate === 'false-promotion' && b.gate !== 'false-promotion'))
    return 'improvement';
  return 'same';
}

export function compareReports(a: EvalReport, b: EvalReport): ComparedTask[] {
  const inA = new Map(a.results.map((r) => [r.id, r]));
  const inB = new Map(b.results.map((r) => [r.id, r]));
  const ids = [...new Set([...inA.keys(), ...inB.keys()])].sort();
  return ids
    .map((id) => {
      const ra = inA.get(id) ?? null;
      const rb = inB.get(id) ?? null;
      return { id, change: changeOf(ra, rb), a: ra, b: rb };
    })
    .sort((x, y) => ORDER.indexOf(x.change) - ORDER.indexOf(y.change) || (x.id < y.id ? -1 : 1));
}

const side = (r: TaskResult | null) =>
  r ? `${r.resolved ? 'resolved' : 'unresolved'}, ${gateWords[r.gate]}` : '—';

export function comparisonMarkdown(a: EvalReport, b: EvalReport, names: { a: string; b: string }): string {
  const rows = compareReports(a, b);
  const count = (c: Change) => rows.filter((r) => r.change === c).length;
  const line = (label: string, ra: EvalReport) =>
    `- ${label}: ${ra.totals.resolved}/${ra.totals.tasks} resolved (${percent(ra.totals.resolvedRate)}), ${ra.totals.falsePromotions} false promotions, ${ra.totals.missedPromotions} missed, ${usd(ra.totals.costUsd)} (${answeredWords(ra)})`;
  return [
    `## booty eval --compare: ${count('regression')} regressions, ${count('improvement')} improvements`,
    '',
    line(`A ${names.a}`, a),
    line(`B ${names.b}`, b),
    '',
    '| task | change | A | B | cost A | cost B |',
    '|---|---|---|---|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.id} | ${r.change} | ${side(r.a)} | ${side(r.b)} | ${r.a ? usd(r.a.costUsd) : '—'} | ${r.b ? usd(r.b.costUsd) : '—'} |`,
    ),
  ].join('\n');
}
