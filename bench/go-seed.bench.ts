// go-seed: the CPU of a Go job's first test run, in a new HOME that booty seeded with the standard
// library as `go test` vets it (src/sandbox/go-seed.ts: the copy counted), against the same run in
// an empty HOME, as every Go job ran before. The module is small and imports net, as a service
// does: its own package is nearly nothing to build and vet, so the figure is what the seed spares.
// CPU is the machine's (go, vet, cgo, gcc, cp, bubblewrap), read from /proc/stat: wall time on two
// shared cores would measure how the run was spread over them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type SeedRun, seedGoCache } from '../src/sandbox/go-seed.js';
import { runCommand } from '../src/sandbox/run-command.js';
import { type BenchResult, median, ratio, round } from './bench-result.js';

const RUNS = 5;
const COMMAND = 'go test -count=1 ./...';

const files: Record<string, string> = {
  'go.mod': 'module example.com/hosts\n\ngo 1.19\n',
  'hosts.go':
    'package hosts\n\nimport "net"\n\nfunc Join(h, p string) string { return net.JoinHostPort(h, p) }\n',
  'hosts_test.go':
    'package hosts\n\nimport "testing"\n\nfunc TestJoin(t *testing.T) {\n\tif Join("a", "1") != "a:1" {\n\t\tt.Fatal()\n\t}\n}\n',
};

/**
 * CPU seconds the whole machine has spent so far (user, nice and system, from /proc/stat): the
 * sandboxed processes are not this process's waited children, and the benchmarks run alone.
 */
function machineCpu(): number {
  const [user, nice, system] = fs
    .readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .split(/\s+/)
    .slice(1, 4)
    .map(Number);
  return (user! + nice! + system!) / 100;
}

export default async function goSeedBench(): Promise<BenchResult[]> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'booty-bench-go-'));
  try {
    const dir = path.join(root, 'repo');
    fs.mkdirSync(dir);
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    const cacheDir = path.join(root, 'cache');
    let homes = 0;
    const run: SeedRun = (seed) => runCommand({ ...seed, network: false, sandbox: 'required' });
    const signal = new AbortController().signal;
    const seeding = {
      dir,
      command: COMMAND,
      searchPath: process.env.PATH ?? '',
      sandbox: 'required' as const,
      run,
      signal,
      cacheDir,
    };
    const firstRun = async (seeded: boolean) => {
      const home = path.join(root, `home-${homes++}`);
      fs.mkdirSync(home);
      const before = machineCpu();
      if (seeded) {
        await seedGoCache({ ...seeding, home });
      }
      const result = await runCommand({
        cwd: dir,
        home,
        command: COMMAND,
        network: false,
        sandbox: 'required',
        timeoutMs: 300_000,
      });
      if (result.exitCode !== 0) throw new Error(`go test exited ${result.exitCode}: ${result.output}`);
      return machineCpu() - before;
    };
    // The seed is built once per toolchain, before any job: not a job's cost.
    await seedGoCache({ ...seeding, home: fs.mkdtempSync(path.join(root, 'warm-')) });
    const seeded: number[] = [];
    const cold: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      cold.push(await firstRun(false));
      seeded.push(await firstRun(true));
    }
    const value = median(seeded);
    const baseline = median(cold);
    return [
      {
        name: 'go-seed',
        metric: "a Go job's first test run, CPU: seeded HOME ÷ empty HOME",
        value: round(value, 2),
        baseline: round(baseline, 2),
        ratio: ratio(value, baseline),
        unit: 'CPU-s',
        goal: '≤ 0.5',
      },
    ];
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
