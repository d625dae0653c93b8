// Where the job view draws the job's own path: its states in rows, in the order the job first
// reached them, and each transition it took as a line of right angles that shares no stretch with
// another. A line leaves a box through a port of its own (top ports in a box's left half, bottom
// ports in its right half, so the boxes of one column never share one), runs along a lane of its
// own in the gap between two rows, and, to reach a row further off, down a track of its own in the
// gap between two columns. Gaps grow with the lines they carry. Pure: numbers in, numbers out.

export const BOX = { w: 150, h: 38, pad: 24, perRow: 6 };
/** The least gap between rows (above the first and below the last: the edge), and between columns. */
const GAP = { rows: 70, edge: 40, columns: 46 };
/** Between two lanes of a gap, or two tracks of a column gap. */
const STEP = { lane: 10, track: 9 };

export interface Point {
  x: number;
  y: number;
}
export interface RoutedEdge {
  from: string;
  to: string;
  /** Corners of the line, first on `from`'s border, last on `to`'s. */
  points: Point[];
}
export interface PathLayout {
  place: Map<string, Point>;
  edges: RoutedEdge[];
  width: number;
  height: number;
}

type Side = 'top' | 'bottom';
/** A line's share of the drawing, fixed before any coordinate is known. */
interface Plan {
  from: string;
  to: string;
  kind: 'next' | 'lanes';
  /** Sides it leaves and enters by. */
  out: Side;
  in: Side;
  /** Gap indexes (gap g lies above row g) of its one or two lanes. */
  gaps: number[];
  /** The column gap (c lies left of column c) of its track, for a line to a row further off. */
  column: number | null;
}

export function layoutPath(states: readonly string[], taken: readonly [string, string][]): PathLayout {
  const index = new Map(states.map((s, i) => [s, i]));
  const row = (s: string) => Math.floor(index.get(s)! / BOX.perRow);
  const col = (s: string) => index.get(s)! % BOX.perRow;
  const rows = Math.ceil(states.length / BOX.perRow);
  const columns = Math.min(states.length, BOX.perRow);

  const plans = taken.map(([from, to]): Plan => {
    const [r1, r2] = [row(from), row(to)];
    const base = { from, to, column: null };
    if (r1 === r2) {
      if (col(to) === col(from) + 1) return { ...base, kind: 'next', out: 'top', in: 'top', gaps: [] };
      // Forward past a neighbour over the row; back (a loop) under it.
      const side: Side = col(to) > col(from) ? 'top' : 'bottom';
      return { ...base, kind: 'lanes', out: side, in: side, gaps: [side === 'top' ? r1 : r1 + 1] };
    }
    const down = r2 > r1;
    const out: Side = down ? 'bottom' : 'top';
    const into: Side = down ? 'top' : 'bottom';
    const first = down ? r1 + 1 : r1;
    const last = down ? r2 : r2 + 1;
    if (first === last) return { ...base, kind: 'lanes', out, in: into, gaps: [first] };
    // The column gap beside the box it leaves: right of it, or left of the last column.
    const column = Math.min(col(from) + 1, columns - 1);
    return { ...base, kind: 'lanes', out, in: into, gaps: [first, last], column };
  });

  // Lanes and tracks in the order the lines come; each line's own.
  const lanes = new Map<number, number>();
  const laneOf = plans.map((p) =>
    p.gaps.map((g) => {
      const n = lanes.get(g) ?? 0;
      lanes.set(g, n + 1);
      return n;
    }),
  );
  const tracks = new Map<number, number>();
  const trackOf = plans.map((p) => {
    if (p.column === null) return 0;
    const n = tracks.get(p.column) ?? 0;
    tracks.set(p.column, n + 1);
    return n;
  });

  const gapX = Math.max(GAP.columns, (Math.max(0, ...tracks.values()) + 1) * STEP.track);
  const gapH = Array.from({ length: rows + 1 }, (_, g) =>
    Math.max(g === 0 || g === rows ? GAP.edge : GAP.rows, ((lanes.get(g) ?? 0) + 1) * STEP.lane),
  );
  const gapTop: number[] = [BOX.pad];
  for (let g = 1; g <= rows; g++) gapTop.push(gapTop[g - 1]! + gapH[g - 1]! + BOX.h);
  const place = new Map(
    states.map((s) => [s, { x: BOX.pad + col(s) * (BOX.w + gapX), y: gapTop[row(s)]! + gapH[row(s)]! }]),
  );
  const laneY = (g: number, i: number) => gapTop[g]! + ((i + 1) * gapH[g]!) / ((lanes.get(g) ?? 0) + 1);
  const trackX = (c: number, i: number) =>
    BOX.pad + c * (BOX.w + gapX) - gapX / 2 + (i - ((tracks.get(c) ?? 1) - 1) / 2) * STEP.track;

  // Ports: each box side's lines, ordered by where they head, spread over its half of the side.
  const ends = new Map<string, { plan: number; toward: number }[]>();
  const center = (s: string) => place.get(s)!.x + BOX.w / 2;
  for (const [i, p] of plans.entries()) {
    if (p.kind === 'next') continue;
    const far = (s: string) => (p.column === null ? center(s) : trackX(p.column, trackOf[i]!));
    for (const [state, side, other] of [
      [p.from, p.out, p.to],
      [p.to, p.in, p.from],
    ] as const) {
      const key = `${state}:${side}`;
      ends.set(key, [...(ends.get(key) ?? []), { plan: i, toward: far(other) }]);
    }
  }
  const portX = new Map<string, number>();
  for (const [key, list] of ends) {
    const [state, side] = key.split(':') as [string, Side];
    const left = place.get(state)!.x + (side === 'top' ? 8 : BOX.w / 2 + 4);
    const span = BOX.w / 2 - 12;
    list.sort((a, b) => a.toward - b.toward || a.plan - b.plan);
    // A line both leaves and enters one side only when it loops on its own state, which it never does.
    for (const [k, e] of list.entries())
      portX.set(`${e.plan}:${state}:${side}`, left + ((k + 1) * span) / (list.length + 1));
  }

  const edges = plans.map((p, i): RoutedEdge => {
    const a = place.get(p.from)!;
    const b = place.get(p.to)!;
    if (p.kind === 'next') {
      const y = a.y + BOX.h / 2;
      return {
        from: p.from,
        to: p.to,
        points: [
          { x: a.x + BOX.w, y },
          { x: b.x, y },
        ],
      };
    }
    const sideY = (at: Point, side: Side) => (side === 'top' ? at.y : at.y + BOX.h);
    const x1 = portX.get(`${i}:${p.from}:${p.out}`)!;
    const x2 = portX.get(`${i}:${p.to}:${p.in}`)!;
    const y1 = laneY(p.gaps[0]!, laneOf[i]![0]!);
    const y2 = laneY(p.gaps.at(-1)!, laneOf[i]!.at(-1)!);
    const track = p.column === null ? [] : [trackX(p.column, trackOf[i]!)];
    const points = [
      { x: x1, y: sideY(a, p.out) },
      { x: x1, y: y1 },
      ...track.flatMap((x) => [
        { x, y: y1 },
        { x, y: y2 },
      ]),
      { x: x2, y: y2 },
      { x: x2, y: sideY(b, p.in) },
    ];
    return { from: p.from, to: p.to, points };
  });
  const width = BOX.pad * 2 + columns * BOX.w + (columns - 1) * gapX;
  const height = gapTop[rows]! + gapH[rows]! + BOX.pad;
  return { place, edges, width, height };
}
