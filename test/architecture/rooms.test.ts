import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The rules between rooms (DESIGN.md's Layout, docs/architecture.md), read from the code's own
// imports: every `from '…'` and `import('…')` of a file under src/ and sim/. A rule broken here names
// the file and what it imports.

const root = path.resolve(import.meta.dirname, '../..');

function sources(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) sources(rel, out);
    else if (e.name.endsWith('.ts')) out.push(rel);
  }
  return out;
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;
/** `import type { … } from '…'`: a shape, not code that runs. */
const TYPE_ONLY = /^import type [^;]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/gm;

const resolve = (file: string, spec: string) =>
  path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)).replace(/\.js$/, '.ts');

/** Each source file and the source files it imports only for their types. */
const typeOnly = new Map<string, Set<string>>(
  [...sources('src'), ...sources('sim')].map((file) => {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    return [file, new Set([...text.matchAll(TYPE_ONLY)].map((m) => resolve(file, m[1]!)))];
  }),
);

/** Each source file and the source files it imports. */
const graph = new Map<string, string[]>(
  [...sources('src'), ...sources('sim')].map((file) => {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((m) => resolve(file, m[1]!));
    return [file, targets.filter((t) => t.endsWith('.ts'))];
  }),
);

/** The room a file stands in: its folder under src/ (each forge adapter apart), or sim. */
function room(file: string): string {
  if (file.startsWith('sim/')) return 'sim';
  const parts = file.split('/').slice(1, -1);
  if (parts[0] === 'forges' && (parts[1] === 'github' || parts[1] === 'gitlab')) return `forges/${parts[1]}`;
  return parts[0] ?? 'root';
}

/** Imports from `from` rooms into `into` rooms, as "file -> imported". */
function crossings(from: (r: string) => boolean, into: (r: string) => boolean): string[] {
  const out: string[] = [];
  for (const [file, targets] of graph) {
    if (!from(room(file))) continue;
    for (const t of targets) if (into(room(t)) && room(t) !== room(file)) out.push(`${file} -> ${t}`);
  }
  return out;
}

const is =
  (...rooms: string[]) =>
  (r: string) =>
    rooms.includes(r);
const not =
  (...rooms: string[]) =>
  (r: string) =>
    !rooms.includes(r);

describe('the rooms of src', () => {
  // src/errors.ts, the one catalogue of errors, is the ground every room stands on. The machine
  // also reads src/refine, the pure room of failure classes (which fail fast, and what a human must
  // change then), which imports only events and src/text-scan.ts itself.
  it('events imports nothing outside itself, and machines only events (and refine, pure)', () => {
    expect(crossings(is('events'), not('events', 'root'))).toEqual([]);
    expect(crossings(is('machines'), not('events', 'refine', 'root'))).toEqual([]);
    expect(crossings(is('refine'), not('events', 'root'))).toEqual([]);
    const rootFiles = (from: string) => (graph.get(from) ?? []).filter((t) => room(t) === 'root');
    for (const f of [...graph.keys()].filter((f) => ['events', 'machines'].includes(room(f))))
      expect(
        rootFiles(f).filter((t) => t !== 'src/errors.ts'),
        f,
      ).toEqual([]);
  });

  it('store imports none of engine, intake, effects, views, forges, gateway, main', () => {
    expect(
      crossings(
        is('store'),
        is(
          'engine',
          'intake',
          'effects',
          'views',
          'forges',
          'forges/github',
          'forges/gitlab',
          'gateway',
          'main',
        ),
      ),
    ).toEqual([]);
  });

  it('engine imports none of intake, gateway, views, main, or a forge adapter', () => {
    expect(
      crossings(is('engine'), is('intake', 'gateway', 'views', 'main', 'forges/github', 'forges/gitlab')),
    ).toEqual([]);
  });

  it('views import no client and no store: they render what they are given', () => {
    const shapeOnly = (c: string) => {
      const [from, to] = c.split(' -> ') as [string, string];
      return typeOnly.get(from)!.has(to);
    };
    expect(
      crossings(
        is('views'),
        is('store', 'forges/github', 'forges/gitlab', 'claude', 'intake', 'effects', 'gateway', 'main'),
      ),
    ).toEqual([]);
    // A timeline is read by the engine and rendered here: its shape only.
    expect(crossings(is('views'), is('engine')).filter((c) => !shapeOnly(c))).toEqual([]);
    // Of the rooms that touch the outside world, views take shapes (types) and the few pure
    // helpers named here, nothing that runs a process or opens a file.
    const pure = [
      'src/sandbox/sandbox-mode.ts',
      'src/workspace/self-modification.ts',
      'src/workspace/test-files.ts',
    ];
    expect(
      crossings(is('views'), is('sandbox', 'workspace')).filter(
        (c) => !shapeOnly(c) && !pure.includes(c.split(' -> ')[1]!),
      ),
    ).toEqual([]);
  });

  it('only main picks a forge adapter: nothing else imports forges/github or forges/gitlab', () => {
    // The offline demo and the eval harness drive the forges' simulators (sim/), not the adapters.
    expect(crossings(not('main', 'forges/github'), is('forges/github'))).toEqual([]);
    expect(crossings(not('main', 'forges/gitlab'), is('forges/gitlab'))).toEqual([]);
  });

  it('no product file imports the simulators, but the offline demo and the eval harness that run them', () => {
    expect(crossings(not('sim', 'demo', 'eval'), is('sim'))).toEqual([]);
  });

  it('has no import cycle in src', () => {
    // Tarjan's strongly connected components over files: any of more than one file is a cycle.
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const cycles: string[][] = [];
    let next = 0;
    const visit = (v: string) => {
      index.set(v, next);
      low.set(v, next++);
      stack.push(v);
      for (const w of graph.get(v) ?? []) {
        if (!graph.has(w) || !w.startsWith('src/')) continue;
        if (!index.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
      if (low.get(v) === index.get(v)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          component.push(w);
        } while (w !== v);
        if (component.length > 1) cycles.push(component.sort());
      }
    };
    for (const v of graph.keys()) if (v.startsWith('src/') && !index.has(v)) visit(v);
    expect(cycles).toEqual([]);
  });

  it('reads the imports it checks: the graph holds the engine and its runner', () => {
    expect(graph.get('src/engine/supervisor.ts')).toContain('src/engine/job-runner.ts');
  });
});
