import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createMetrics } from '../../src/gateway/metrics.js';

// The Grafana dashboard and the alert rules in docs/monitoring name only series booty exports:
// a metric renamed in src/gateway/metrics.ts must be renamed there too.

const dir = path.join(import.meta.dirname, '..', '..', 'docs', 'monitoring');
const dashboard = JSON.parse(fs.readFileSync(path.join(dir, 'grafana-dashboard.json'), 'utf8'));
const alerts = parse(fs.readFileSync(path.join(dir, 'alerts.yaml'), 'utf8')) as {
  groups: { rules: { alert: string; expr: string }[] }[];
};

/** The metric names an expression reads (a histogram's _bucket series by its metric). */
const namesIn = (expr: string) =>
  [...expr.matchAll(/\bbooty_[a-z_]+/g)].map((m) => m[0].replace(/_bucket$/, ''));

async function exported(): Promise<Set<string>> {
  const metrics = createMetrics({ defaultMetrics: false });
  const text = await metrics.registry.metrics();
  return new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!));
}

describe('the monitoring docs', () => {
  it('the dashboard reads only metrics booty exports, and aggregates the shared gauges with max()', async () => {
    const known = await exported();
    const exprs: string[] = dashboard.panels.flatMap((p: { targets: { expr: string }[] }) =>
      p.targets.map((t) => t.expr),
    );
    expect(exprs.length).toBeGreaterThan(0);
    for (const expr of exprs) for (const name of namesIn(expr)) expect(known, expr).toContain(name);
    for (const shared of ['booty_store_jobs', 'booty_queue_jobs', 'booty_queue_oldest_seconds'])
      for (const expr of exprs.filter((e) => namesIn(e).includes(shared)))
        expect(expr).not.toMatch(/\bsum\b/);
  });

  it('the alert rules read only metrics booty exports: a growing queue age and lapses among them', async () => {
    const known = await exported();
    const rules = alerts.groups.flatMap((g) => g.rules);
    for (const rule of rules)
      for (const name of namesIn(rule.expr)) expect(known, rule.alert).toContain(name);
    const read = rules.flatMap((r) => namesIn(r.expr));
    expect(read).toContain('booty_queue_oldest_seconds');
    expect(read).toContain('booty_lease_lapses_total');
  });
});
