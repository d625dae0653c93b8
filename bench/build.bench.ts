// build: the build step (`npm run build`: esbuild emits src/ file for file) against the type check
// of the same tree (`tsc --noEmit`, which CI runs apart), median of 3 each. The first demo from a
// clean clone waits on the build, not on the type check.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { type BenchResult, median, ratio, round } from './bench-result.js';

const root = path.resolve(import.meta.dirname, '..');

function seconds(args: string[], runs = 3): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    execFileSync(process.execPath, args, { cwd: root, stdio: 'ignore' });
    times.push((performance.now() - started) / 1000);
  }
  return median(times);
}

export default async function run(): Promise<BenchResult[]> {
  const build = seconds([path.join(root, 'scripts/build.mjs')]);
  const typecheck = seconds([
    path.join(root, 'node_modules/typescript/bin/tsc'),
    '-p',
    path.join(root, 'tsconfig.json'),
    '--noEmit',
  ]);
  return [
    {
      name: 'build',
      metric: 'build-vs-typecheck',
      value: round(build, 2),
      baseline: round(typecheck, 2),
      ratio: ratio(build, typecheck),
      unit: 's',
      goal: 'ratio <= 0.15',
    },
  ];
}
