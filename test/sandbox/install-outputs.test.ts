import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RepoConfig } from '../../src/events/effect-results.js';
import { type JobContext, mergeChanges } from '../../src/machines/job-context.js';
import { useScratch } from '../fixtures/workspace-scratch.js';
import { preparedRepo } from './prepared-job.js';

// What the install step writes into a work tree the repository does not ignore (no .gitignore at
// all) stays for every later run of the job: the reset before a run restores the tracked files and
// the change, removes what a test left, and keeps the install's output. One repository per
// ecosystem that installs into the tree, each with tests that need that output.

const signal = new AbortController().signal;

useScratch();

/** The Rust toolchain's own bin: rustup's proxy cannot pick a toolchain from a fresh HOME. */
const rustBin = path.dirname(execFileSync('rustup', ['which', 'cargo'], { encoding: 'utf8' }).trim());

interface Ecosystem {
  files: Record<string, string>;
  install: string;
  test: string;
  /** What the install wrote, untracked and not ignored. */
  output: string;
  /** The model's change: a new test beside the old ones. */
  change: Record<string, string>;
  parentEnv?: NodeJS.ProcessEnv;
}

const ecosystems: Record<string, Ecosystem> = {
  // npm installs a local package into node_modules (copied, not linked) and writes a lockfile.
  npm: {
    files: {
      'package.json': JSON.stringify({
        name: 'app',
        version: '1.0.0',
        private: true,
        scripts: { test: 'node --test' },
        dependencies: { units: 'file:./packages/units' },
      }),
      'packages/units/package.json': JSON.stringify({ name: 'units', version: '1.0.0', main: 'index.js' }),
      'packages/units/index.js': 'exports.HOUR = 3600;\n',
      'test/units.test.js':
        "const test = require('node:test');\nconst assert = require('node:assert');\nconst { HOUR } = require('units');\ntest('an hour', () => assert.strictEqual(HOUR, 3600));\n",
    },
    install: 'npm install --no-audit --no-fund --install-links',
    test: 'npm test',
    output: 'node_modules/units/index.js',
    change: {
      'test/minute.test.js':
        "const test = require('node:test');\nconst assert = require('node:assert');\nconst { HOUR } = require('units');\ntest('a minute', () => assert.strictEqual(HOUR / 60, 60));\n",
    },
  },
  // A virtualenv in the tree, the package installed into it as an editable install does (a .pth).
  python: {
    files: {
      'pyproject.toml': '[project]\nname = "units"\nversion = "1.0"\n',
      'src/units/__init__.py': 'HOUR = 3600\n',
      'tests/test_units.py': 'from units import HOUR\n\n\ndef test_hour():\n    assert HOUR == 3600\n',
    },
    install: `python3 -m venv --system-site-packages .venv && .venv/bin/python -c "import os, site; open(os.path.join(site.getsitepackages()[0], 'units.pth'), 'w').write(os.path.abspath('src'))"`,
    test: '.venv/bin/python -m pytest',
    output: '.venv/bin/python',
    change: {
      'tests/test_minute.py': 'from units import HOUR\n\n\ndef test_minute():\n    assert HOUR // 60 == 60\n',
    },
  },
  // cargo's target/: the release binary the install built, which the integration test runs.
  cargo: {
    files: {
      'Cargo.toml': '[package]\nname = "units"\nversion = "0.1.0"\nedition = "2021"\n',
      'src/main.rs': 'fn main() {\n    println!("3600");\n}\n',
      'tests/cli.rs': `fn run() -> String {
    let bin = concat!(env!("CARGO_MANIFEST_DIR"), "/target/release/units");
    String::from_utf8(std::process::Command::new(bin).output().expect("the release build").stdout).unwrap()
}

#[test]
fn an_hour() {
    assert_eq!(run().trim(), "3600");
}
`,
    },
    install: 'cargo build --release --offline --quiet',
    test: 'cargo test --offline',
    output: 'target/release/units',
    change: {
      'tests/minute.rs':
        '#[test]\nfn a_minute() {\n    let bin = concat!(env!("CARGO_MANIFEST_DIR"), "/target/release/units");\n    assert!(std::path::Path::new(bin).exists());\n}\n',
    },
    parentEnv: { ...process.env, PATH: `${rustBin}:${process.env.PATH}` },
  },
  // go's build output: a tool the install built into bin/, which the tests run.
  go: {
    files: {
      'go.mod': 'module example.com/units\n\ngo 1.19\n',
      'cmd/units/main.go': 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println(3600) }\n',
      'units.go': 'package units\n',
      'units_test.go': `package units

import (
	"os/exec"
	"strings"
	"testing"
)

func TestHour(t *testing.T) {
	out, err := exec.Command("bin/units").Output()
	if err != nil || strings.TrimSpace(string(out)) != "3600" {
		t.Fatalf("bin/units: %q %v", out, err)
	}
}
`,
    },
    install: 'go build -o bin/units ./cmd/units',
    test: 'go test -vet=off ./...',
    output: 'bin/units',
    change: {
      'minute_test.go':
        'package units\n\nimport (\n\t"os"\n\t"testing"\n)\n\nfunc TestMinute(t *testing.T) {\n\tif _, err := os.Stat("bin/units"); err != nil {\n\t\tt.Fatal(err)\n\t}\n}\n',
    },
  },
};

describe('what the install writes into the tree', () => {
  it.each(Object.entries(ecosystems))(
    '%s: stays through the reset before every run, in a repository with no .gitignore',
    async (_, eco) => {
      const config: Partial<RepoConfig> = {
        install: { command: eco.install },
        test: { command: eco.test, report: [] },
      };
      const { ws, job, effects, input, dir } = await preparedRepo(eco.files, config, {
        parentEnv: eco.parentEnv,
      });
      expect(fs.existsSync(path.join(dir, '.gitignore'))).toBe(false);
      const baseline = await effects.runBaseline(input(job, 'runBaseline'), { signal });
      expect(baseline, baseline.outputTail).toMatchObject({ broken: null, exitCode: 0, sandbox: 'bwrap' });
      expect(fs.existsSync(path.join(dir, eco.output))).toBe(true);

      const changes = Object.entries(eco.change).map(([p, content]) => ({ path: p, content }));
      const proposal = { changes, explanation: '' };
      await ws.applyChanges(
        { key: 'k', step: 'applyChanges', attempt: 1, notBefore: null, job: { ...job, proposal } },
        { signal },
      );
      const changed: JobContext = {
        ...job,
        baseline: { ...baseline, at: 0 },
        changes: mergeChanges([], changes),
      };
      const first = await effects.runTests(input(changed, 'runTests'), { signal });
      expect(first, first.outputTail).toMatchObject({ verdict: 'pass', passed: true, exitCode: 0 });
      expect(first.totals.passed).toBe(2);

      // What a test leaves untracked of its own goes with the next reset, and only that.
      fs.writeFileSync(path.join(dir, 'dropped.txt'), 'junk');
      const again = await effects.runTests(input(changed, 'runTests'), { signal });
      expect(again, again.outputTail).toMatchObject({ verdict: 'pass', passed: true, exitCode: 0 });
      expect(fs.existsSync(path.join(dir, 'dropped.txt'))).toBe(false);
      expect(fs.existsSync(path.join(dir, eco.output))).toBe(true);
    },
  );
});
