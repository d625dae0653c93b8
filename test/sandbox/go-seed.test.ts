import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { base, prepareInput, signal, useScratch } from '../fixtures/workspace-scratch.js';
import { preparedRepo } from './prepared-job.js';

// A Go repository's first run in a new job's HOME finds the standard library already vetted: booty
// copies its seed (go-seed.ts) into the HOME first. `go test -x` prints every tool it runs, so the
// packages vetted are counted: the module's own package only, where an empty cache vets net's whole tree.

useScratch();

const module = {
  'go.mod': 'module example.com/hosts\n\ngo 1.19\n',
  'hosts.go':
    'package hosts\n\nimport "net"\n\nfunc Join(h, p string) string { return net.JoinHostPort(h, p) }\n',
  'hosts_test.go': `package hosts

import "testing"

func TestJoin(t *testing.T) {
	if Join("a", "1") != "a:1" {
		t.Fatal(Join("a", "1"))
	}
}
`,
};

/** The test command: `go test -x`, its trace kept aside (a run's output keeps only its tail), then `after`. */
const traced = (after = 'true') =>
  `go test -x ./... 2>/tmp/trace; s=$?; echo "VET RUNS $(grep -c '/vet .*vet\\.cfg' /tmp/trace)"; ${after}; exit $s`;

/** How many packages the run's `go test -x` vetted. */
const vetRuns = (output: string) => Number(/VET RUNS (\d+)/.exec(output)?.[1] ?? Number.NaN);

/** Each file of a folder and a hash of its bytes. */
function contents(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!f.isFile()) continue;
    const full = path.join(f.parentPath, f.name);
    out[path.relative(dir, full)] = createHash('sha256').update(fs.readFileSync(full)).digest('hex');
  }
  return out;
}

describe("the Go seed: the standard library vetted once, copied into each Go job's HOME", () => {
  it('vets only the repository on its first run, and no job can change the seed it was copied from', async () => {
    const cacheDir = path.join(base, 'booty-cache');
    // The seed is built on the first Go run of this cache folder. The run spoils its own copy.
    const spoil =
      'find "$HOME/.cache/go-build" -type f -name "*-d" -exec sh -c \'echo junk > "$1"\' _ {} \\;';
    const { ws, job, effects, input } = await preparedRepo(
      module,
      { install: null, test: { command: traced(spoil), report: [] } },
      { cacheDir },
    );
    const baseline = await effects.runBaseline(input(job, 'runBaseline'), { signal });
    expect(baseline.exitCode, baseline.outputTail).toBe(0);
    expect(vetRuns(baseline.outputTail)).toBe(1);

    const seeds = fs.readdirSync(path.join(cacheDir, 'go-vet-seed'));
    expect(seeds).toHaveLength(1);
    const seed = path.join(cacheDir, 'go-vet-seed', seeds[0]!);
    const before = contents(seed);
    expect(Object.keys(before).length).toBeGreaterThan(100);
    // The job's copy was spoiled; the seed was not.
    const spoiled = Object.values(contents(path.join(await ws.home(job), '.cache', 'go-build')));
    const junk = createHash('sha256').update('junk\n').digest('hex');
    expect(spoiled.filter((h) => h === junk).length).toBeGreaterThan(100);
    expect(Object.values(before)).not.toContain(junk);

    // A second job, in a HOME of its own: the seed is as it was built, and serves again.
    const job2 = {
      ...job,
      jobId: 'job-2',
      config: { ...job.config!, test: { command: traced(), report: [] } },
    };
    await ws.prepare(prepareInput(job2), { signal });
    const again = await effects.runBaseline(input(job2, 'runBaseline'), { signal });
    expect(again.exitCode).toBe(0);
    expect(vetRuns(again.outputTail)).toBe(1);
    expect(contents(seed)).toEqual(before);

    // A seed removed under booty costs a job its seed, not its run: this one vets net and
    // everything under it, as every Go job did before seeds.
    fs.rmSync(seed, { recursive: true });
    const job3 = { ...job2, jobId: 'job-3' };
    await ws.prepare(prepareInput(job3), { signal });
    const cold = await effects.runBaseline(input(job3, 'runBaseline'), { signal });
    expect(cold.exitCode).toBe(0);
    expect(vetRuns(cold.outputTail)).toBeGreaterThan(20);
  });

  it("goes in beside what an install built in the cache, and the install's output stays as it made it", async () => {
    const cacheDir = path.join(base, 'booty-cache');
    const { ws, job, effects, input } = await preparedRepo(
      module,
      {
        install: { command: 'go build ./... && echo built >> "$HOME/installs"' },
        test: { command: traced(), report: [] },
      },
      { cacheDir },
    );
    const baseline = await effects.runBaseline(input(job, 'runBaseline'), { signal });
    expect(baseline.exitCode).toBe(0);
    expect(vetRuns(baseline.outputTail)).toBe(1);
    // The next run finds the install's output as it was: nothing to install again.
    const again = await effects.runTests(input({ ...job, baseline: { ...baseline, at: 0 } }, 'runTests'), {
      signal,
    });
    expect(again.exitCode).toBe(0);
    expect(vetRuns(again.outputTail)).toBe(1);
    expect(fs.readFileSync(path.join(await ws.home(job), 'installs'), 'utf8')).toBe('built\n');
  });

  it('follows no symbolic link a run left in HOME: the cache folder and the marker stay where they are', async () => {
    const cacheDir = path.join(base, 'booty-cache');
    const outside = path.join(base, 'outside');
    fs.mkdirSync(outside);
    // The install leaves the build cache as a link to a folder outside HOME.
    const { ws, job, effects, input } = await preparedRepo(
      module,
      {
        install: { command: `mkdir -p "$HOME/.cache" && ln -s ${outside} "$HOME/.cache/go-build"` },
        test: { command: 'true', report: [] },
      },
      { cacheDir },
    );
    await effects.runBaseline(input(job, 'runBaseline'), { signal });
    expect(fs.readdirSync(path.join(cacheDir, 'go-vet-seed'))).toHaveLength(1);
    expect(fs.readdirSync(outside)).toEqual([]);
    // Another leaves the marker as a link to a file that is not there.
    const planted = path.join(base, 'planted');
    const job2 = {
      ...job,
      jobId: 'job-2',
      config: {
        ...job.config!,
        install: {
          command: `mkdir -p "$HOME/.cache/go-build" && ln -s ${planted} "$HOME/.cache/go-build/booty-seeded"`,
        },
      },
    };
    await ws.prepare(prepareInput(job2), { signal });
    await effects.runBaseline(input(job2, 'runBaseline'), { signal });
    expect(fs.existsSync(planted)).toBe(false);
  });

  it('leaves the HOME of a repository that is not Go as it was', async () => {
    const cacheDir = path.join(base, 'booty-cache');
    const { job, effects, input } = await preparedRepo(
      {
        'package.json': '{"name":"a","version":"1.0.0"}',
        'test/a.test.js': "require('node:test')('a', () => {});\n",
      },
      { install: null, test: { command: 'node --test; ls -a "$HOME/.cache" || echo NO-CACHE', report: [] } },
      { cacheDir },
    );
    const run = await effects.runBaseline(input(job, 'runBaseline'), { signal });
    expect(run.totals.passed).toBe(1);
    expect(run.outputTail).toContain('NO-CACHE');
    expect(fs.existsSync(cacheDir)).toBe(false);
  });
});
