import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { CiScriptInput } from '../../sim/github/github-sim-ci-script.js';
import type { CiJob, CiResult } from '../../sim/github/github-sim-state-ci.js';
import type { FileChange } from './demo-script.js';

// The sample repository's CI in the `ci-red` scenario, as a GitHub Actions runner runs it on a
// push: a `lint` job that allows lines of at most 100 characters (a formatter's print width) and
// a `test` job. booty's own test run has no such rule, so its first change passes there and fails
// here. Nothing is made up: both jobs run on the pushed commit's files, and a re-run of the same
// commit gives the same answer, so the failure is red, not flaky.

const MAX_LINE = 100;
const run = promisify(execFile);
const CHECKOUT = { name: 'Run actions/checkout@v4', conclusion: 'success' as const, log: [] };

/** The lines longer than the limit, as the lint step prints them. */
function longLines(files: FileChange[]): string[] {
  return sources(files).flatMap((f) =>
    f.content
      .split('\n')
      .flatMap((line, i) =>
        line.length > MAX_LINE
          ? [
              `${f.path}:${i + 1}:${MAX_LINE + 1}: line is ${line.length} characters long; at most ${MAX_LINE}`,
            ]
          : [],
      ),
  );
}

const sources = (files: FileChange[]) =>
  files.filter((f) => /^(src|test)\/.*\.js$/.test(f.path)).sort((a, b) => a.path.localeCompare(b.path));

/** Both jobs of the workflow on a commit's files. */
export async function runWorkflow(files: FileChange[]): Promise<CiResult> {
  const long = longLines(files);
  const lint = job('lint', `Check line length (at most ${MAX_LINE})`, !long.length, [
    ...long,
    `${long.length} line(s) too long`,
  ]);
  const tests = await runTests(files);
  return { jobs: [lint, job('test', 'Run npm test', tests.ok, tests.log)] };
}

function job(name: string, step: string, ok: boolean, log: string[]): CiJob {
  const exit = ok ? [] : ['##[error]Process completed with exit code 1.'];
  return {
    name,
    steps: [CHECKOUT, { name: step, conclusion: ok ? 'success' : 'failure', log: [...log, ...exit] }],
  };
}

/** `node --test test/` in a checkout of the files; the log keeps each result and the totals. */
async function runTests(files: FileChange[]): Promise<{ ok: boolean; log: string[] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'booty-demo-ci-'));
  try {
    for (const f of files) {
      fs.mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
      fs.writeFileSync(path.join(dir, f.path), f.content);
    }
    const done = await run(process.execPath, ['--test', '--test-reporter=tap', 'test/'], { cwd: dir }).then(
      (r) => ({ ok: true, out: r.stdout }),
      (err: { stdout?: string }) => ({ ok: false, out: err.stdout ?? '' }),
    );
    const log = done.out.split('\n').filter((l) => /^(not ok|ok) |^# (tests|pass|fail) /.test(l));
    return { ok: done.ok, log };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The workflow's answer for one commit, the same on every attempt. Its runs wait until the demo
 * finishes them, when booty has nothing left to do, so booty meets CI in the same order every
 * time. Actions only, as most repositories have: no commit status beside the checks.
 */
export function ciScript(sha: string, result: CiResult): CiScriptInput & { sha: string } {
  return { sha, heads: [result], completes: 'on-demand', statusContext: null };
}
