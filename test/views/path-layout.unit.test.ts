import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../src/store/records.js';
import { pathDiagram } from '../../src/views/job-view.js';
import { BOX, layoutPath, type Point } from '../../src/views/path-layout.js';

// The job view's path, drawn in rows of six: whatever the job did, no two of its lines share a
// stretch, no line crosses a box, and each runs from the border of the state it left to the border
// of the state it reached. Checked on the recorded jobs of the record's golden files and on a path
// that jumps back and forth across three rows.

/** The states a recorded job passed through, in order, as the job view reads them from its log. */
function recordedPath(name: string): string[] {
  const rows: StoredEvent[] = JSON.parse(
    fs.readFileSync(new URL(`./golden/logs/${name}.json`, import.meta.url), 'utf8'),
  ).rows;
  const path: string[] = [];
  for (const r of rows) if (r.state && r.state !== path.at(-1)) path.push(r.state);
  return path;
}

const s = (i: number) => `state${i}`;
const jumpy = [...Array.from({ length: 16 }, (_, i) => i), 3, 14, 1, 8, 13, 0, 12, 5, 10, 2, 7, 9, 4].map(s);

const paths: [string, string[]][] = [
  ...['review-round', 'ci-round', 'question', 'flaky-rerun', 'exhausted-repeated'].map(
    (name): [string, string[]] => [name, recordedPath(name)],
  ),
  ['a path that jumps across three rows', jumpy],
];

interface Segment {
  edge: number;
  a: Point;
  b: Point;
}

function drawn(path: string[]) {
  const states = [...new Set(path)];
  const taken = [...new Set(path.slice(1).map((to, i) => `${path[i]}>${to}`))]
    .map((k) => k.split('>') as [string, string])
    .filter(([from, to]) => from !== to);
  return { taken, ...layoutPath(states, taken) };
}

/** Two axis-aligned segments lie on one line and share more than a point. */
function overlap(p: Segment, q: Segment): boolean {
  const vertical = (g: Segment) => g.a.x === g.b.x;
  if (vertical(p) !== vertical(q)) return false;
  const [along, across] = vertical(p) ? (['y', 'x'] as const) : (['x', 'y'] as const);
  if (p.a[across] !== q.a[across]) return false;
  const lo = Math.max(Math.min(p.a[along], p.b[along]), Math.min(q.a[along], q.b[along]));
  const hi = Math.min(Math.max(p.a[along], p.b[along]), Math.max(q.a[along], q.b[along]));
  return hi - lo > 0.5;
}

/** The segment passes through the box's inside (its border is where lines end). */
function crosses(g: Segment, box: Point): boolean {
  const [x0, x1] = [Math.min(g.a.x, g.b.x), Math.max(g.a.x, g.b.x)];
  const [y0, y1] = [Math.min(g.a.y, g.b.y), Math.max(g.a.y, g.b.y)];
  return x1 > box.x + 0.5 && x0 < box.x + BOX.w - 0.5 && y1 > box.y + 0.5 && y0 < box.y + BOX.h - 0.5;
}

const onBorder = (p: Point, box: Point) =>
  ((p.x === box.x || p.x === box.x + BOX.w) && p.y >= box.y && p.y <= box.y + BOX.h) ||
  ((p.y === box.y || p.y === box.y + BOX.h) && p.x >= box.x && p.x <= box.x + BOX.w);

describe('the job view’s path', () => {
  it.each(paths)('%s: every line on a route of its own, clear of every box', (_, path) => {
    const { taken, place, edges } = drawn(path);
    expect(edges).toHaveLength(taken.length);
    const segments: Segment[] = edges.flatMap((e, edge) =>
      e.points.slice(1).map((b, i) => ({ edge, a: e.points[i]!, b })),
    );
    for (const g of segments) {
      expect(g.a.x === g.b.x || g.a.y === g.b.y, 'a line runs at right angles').toBe(true);
      for (const [state, box] of place)
        expect(crosses(g, box), `${edges[g.edge]!.from}>${edges[g.edge]!.to} crosses ${state}`).toBe(false);
    }
    for (const [i, p] of segments.entries())
      for (const q of segments.slice(i + 1))
        if (p.edge !== q.edge) {
          const names = [p.edge, q.edge].map((k) => `${edges[k]!.from}>${edges[k]!.to}`);
          expect(overlap(p, q), `${names.join(' and ')} share a stretch`).toBe(false);
        }
    for (const e of edges) {
      expect(onBorder(e.points[0]!, place.get(e.from)!)).toBe(true);
      expect(onBorder(e.points.at(-1)!, place.get(e.to)!)).toBe(true);
    }
  });

  it('wraps the recorded round’s path into rows of six, every transition drawn', () => {
    const path = recordedPath('review-round');
    const { taken, place } = drawn(path);
    const svg = pathDiagram(path);
    expect(svg.match(/<path class="edge taken"/g)).toHaveLength(taken.length);
    const rows = new Set([...place.values()].map((p) => p.y));
    expect(rows.size).toBe(Math.ceil(place.size / BOX.perRow));
  });
});
