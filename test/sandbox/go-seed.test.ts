import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/sandbox/run-command.js';
import { base, prepareInput, signal, useScratch } from '../fixtures/workspace-scratch.js';
import { preparedRepo } from './prepared-job.js';

// A Go repository's first run in a new job's HOME finds the standard library already vetted: booty
// copies its seed (go-seed.ts) into the HOME first. `go test -x` prints every tool it runs, so the
// vet runs are counted: the module's own package only, where an empty cache vets net's whole tree.

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

/** How many packages `go test -x` vetted, from its output. */
const vetRuns = (output: string) => output.split('\n').filter((l) => /\/vet .*vet\.cfg\s*$/.test(l)).length;

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
    const { ws, job, effects, input, dir } = await preparedRepo(
      module,
      { install: null, test: { command: `go test -x ./... && ${spoil}`, report: [] } },
      { cacheDir },
    );
    const baseline = await effects.runBaseline(input(job, 'runBaseline'), { signal });
    expect(baseline.totals.passed).toBe(1);
    expect(vetRuns(baseline.outputTail)).toBe(1);

    const seeds = fs.readdirSync(path.join(cacheDir, 'go-vet-seed'));
    expect(seeds).toHaveLength(1);
    const seed = path.join(cacheDir, 'go-vet-seed', seeds[0]!);
    const before = contents(seed);
    expect(Object.keys(before).length).toBeGreaterThan(100);

    // A second job, in a HOME of its own: the seed is as it was built, and serves again.
    const job2 = {
      ...job,
      jobId: 'job-2',
      config: { ...job.config!, test: { command: 'go test -x ./...', report: [] } },
    };
    await ws.prepare(prepareInput(job2), { signal });
    const again = await effects.runBaseline(input(job2, 'runBaseline'), { signal });
    expect(again.totals.passed).toBe(1);
    expect(vetRuns(again.outputTail)).toBe(1);
    expect(contents(seed)).toEqual(before);

    // Without the seed the same run vets net and everything under it.
    const cold = await runCommand({
      cwd: dir,
      command: 'go test -x -count=1 ./...',
      network: false,
      sandbox: 'required',
      timeoutMs: 120_000,
    });
    expect(cold.exitCode).toBe(0);
    expect(vetRuns(cold.output)).toBeGreaterThan(20);
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
