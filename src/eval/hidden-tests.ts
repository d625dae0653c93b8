import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RepoConfig, TestStatus } from '../events/effect-results.js';
import type { SandboxMode } from '../sandbox/bwrap.js';
import { seedGoCache } from '../sandbox/go-seed.js';
import { readResults } from '../sandbox/reports/read-results.js';
import { clearReports, planReporters } from '../sandbox/reports/reporter-plan.js';
import { runCommand } from '../sandbox/run-command.js';
import { CONFIG_PATHS, resolveConfig } from '../workspace/repo-config.js';
import { git } from './eval-git.js';
import type { EvalTask } from './task-format.js';

// The judge of a task: the hidden tests, applied on the commit the job left (the PR's head, or the
// base when there is no PR), run in the sandbox as booty runs tests, and read test by test from the
// runner's own report. The task is resolved when every FAIL_TO_PASS and PASS_TO_PASS test passed.

/** A test's status in the hidden run; `missing` when the run did not report it. */
export type HiddenStatus = TestStatus | 'missing';

export interface HiddenRun {
  /** The commit the tests were applied on. */
  commit: string;
  command: string;
  /** The hidden tests could not be put in place or run; the task is then not resolved. */
  problem: string | null;
  exitCode: number | null;
  failToPass: Record<string, HiddenStatus>;
  passToPass: Record<string, HiddenStatus>;
  resolved: boolean;
  durationMs: number;
}

export interface HiddenInput {
  task: EvalTask;
  /** The forge's bare repository of the task. */
  bare: string;
  commit: string;
  /** Where the checkout goes (removed afterwards). */
  workRoot: string;
  sandbox: SandboxMode;
  /** The operator's additions to the sandbox, as the job's test runs have them. */
  roPaths?: readonly string[];
  passEnv?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
}

export async function runHiddenTests(input: HiddenInput): Promise<HiddenRun> {
  const { task } = input;
  const suite = await runSuite({ ...input, name: task.id, tests: task.hidden });
  const statuses = (ids: string[]) =>
    Object.fromEntries(ids.map((id) => [id, suite.statuses.get(id) ?? ('missing' as const)]));
  const failToPass = statuses(task.hidden.failToPass);
  const passToPass = statuses(task.hidden.passToPass);
  const all = [...Object.values(failToPass), ...Object.values(passToPass)];
  return {
    commit: input.commit,
    command: suite.command,
    problem: suite.problem,
    exitCode: suite.exitCode,
    failToPass,
    passToPass,
    resolved: suite.problem === null && all.every((s) => s === 'passed'),
    durationMs: suite.durationMs,
  };
}

export interface Suite {
  command: string;
  problem: string | null;
  exitCode: number | null;
  /** Every test the run reported, by booty's id. */
  statuses: Map<string, TestStatus>;
  durationMs: number;
}

export interface SuiteInput extends Omit<HiddenInput, 'task'> {
  /** The tests to add before the run (none: the repository's own suite as it is). */
  tests: Pick<EvalTask['hidden'], 'patch' | 'files' | 'command'> | null;
  /** A name for the checkout's folder. */
  name: string;
}

/** The repository's suite at a commit, with tests added, run as booty runs tests. */
export async function runSuite(input: SuiteInput): Promise<Suite> {
  const started = performance.now();
  const dir = fs.mkdtempSync(path.join(input.workRoot, `${input.name}-`));
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'booty-eval-home-'));
  const result = (part: Omit<Suite, 'durationMs' | 'statuses' | 'exitCode'> & Partial<Suite>): Suite => ({
    exitCode: null,
    statuses: new Map(),
    ...part,
    durationMs: Math.round(performance.now() - started),
  });
  try {
    await git(['clone', '--quiet', '--shared', '--no-checkout', input.bare, dir]);
    await git(['checkout', '--quiet', '--detach', input.commit], { cwd: dir });
    let cfg: RepoConfig;
    try {
      cfg = configAt(dir);
    } catch (err) {
      return result({
        command: input.tests?.command ?? '',
        problem: `no test command: ${(err as Error).message}`,
      });
    }
    const command = input.tests?.command ?? cfg.test.command;
    if (input.tests?.patch) {
      try {
        await git(['apply', '--whitespace=nowarn', '-'], { cwd: dir, input: input.tests.patch });
      } catch (err) {
        return result({ command, problem: `the hidden tests do not apply: ${(err as Error).message}` });
      }
    }
    for (const f of input.tests?.files ?? []) {
      fs.mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
      fs.writeFileSync(path.join(dir, f.path), f.content);
    }
    const exec = (run: {
      command: string;
      network: boolean;
      env?: Record<string, string>;
      cwd?: string;
      home?: string;
      signal?: AbortSignal;
      timeoutMs?: number;
    }) =>
      runCommand({
        cwd: run.cwd ?? dir,
        command: run.command,
        network: run.network,
        env: run.env,
        home: run.home ?? home,
        signal: run.signal ?? input.signal,
        timeoutMs: run.timeoutMs ?? cfg.timeoutSeconds * 1000,
        sandbox: input.sandbox,
        roPaths: input.roPaths,
        passEnv: input.passEnv,
        readOnly: [path.join(dir, '.git')],
      });
    if (cfg.install) {
      const installed = await exec({ command: cfg.install.command, network: true });
      if (installed.exitCode !== 0)
        return result({
          command,
          problem: `the install command \`${cfg.install.command}\` exited ${installed.exitCode ?? installed.signal}: ${installed.output.slice(-500)}`,
        });
    }
    await seedGoCache({
      home,
      dir,
      command,
      searchPath: process.env.PATH ?? '',
      sandbox: input.sandbox,
      run: (seed) => exec({ ...seed, network: false }),
      signal: input.signal ?? new AbortController().signal,
    });
    const reportDir = path.join(home, '.booty-reports');
    fs.mkdirSync(reportDir, { recursive: true });
    const plan = await planReporters({ command, cwd: dir, reportDir, configured: cfg.test.report ?? [] });
    await clearReports(plan, dir, [dir, home]);
    const run = await exec({ command: plan.command, network: false, env: plan.env });
    const report = await readResults({ plan, output: run.output, cwd: dir, roots: [dir, home] });
    return result({
      command,
      problem: run.timedOut ? `the tests timed out after ${cfg.timeoutSeconds} s` : null,
      exitCode: run.exitCode,
      statuses: new Map(report.cases.map((c) => [c.id, c.status])),
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  }
}

/**
 * The repository's test setup at the commit, as booty reads it: booty.yml (where the task's own
 * commands are, task-import.ts), else detection.
 */
function configAt(dir: string): RepoConfig {
  const read = (p: string) =>
    fs.existsSync(path.join(dir, p)) ? fs.readFileSync(path.join(dir, p), 'utf8') : null;
  const found = CONFIG_PATHS.find((p) => read(p) !== null);
  return resolveConfig({
    file: found ? { path: found, text: read(found)! } : null,
    rootFiles: fs.readdirSync(dir),
    pyproject: read('pyproject.toml'),
    defaultMaxAttempts: 1,
  });
}
