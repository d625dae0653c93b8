// Runs every bench/*.bench.ts (or those named on the command line), prints the figures and
// writes bench/results.json. Each benchmark measures its own baseline in the same run, in a
// process of its own: one benchmark's heap or open handles must not slow the next.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchResult } from './bench-result.js';

const dir = path.dirname(new URL(import.meta.url).pathname);
const only = process.argv.slice(2);
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
  .sort();

const results: BenchResult[] = [];
for (const file of files) {
  process.stderr.write(`== ${file}\n`);
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'booty-bench-')), 'results.json');
  execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join(dir, 'run-one.ts'), path.join(dir, file), out],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const rows = JSON.parse(fs.readFileSync(out, 'utf8')) as BenchResult[];
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
  for (const r of rows) {
    process.stderr.write(
      `   ${r.name}/${r.metric}: ${r.value} ${r.unit}` +
        (r.baseline !== null ? ` (baseline ${r.baseline} ${r.unit}, ratio ${r.ratio})` : '') +
        `  goal ${r.goal}\n`,
    );
  }
  results.push(...rows);
}

const out = path.join(dir, 'results.json');
const previous: BenchResult[] =
  only.length && fs.existsSync(out) ? JSON.parse(fs.readFileSync(out, 'utf8')) : [];
const merged = [
  ...previous.filter((p) => !results.some((r) => r.name === p.name && r.metric === p.metric)),
  ...results,
];
fs.writeFileSync(out, `${JSON.stringify(merged, null, 2)}\n`);
process.stderr.write(`wrote ${path.relative(process.cwd(), out)} (${merged.length} results)\n`);
