import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RepoConfig, TestStatus } from '../events/effect-results.js';
import type { SandboxMode } from '../sandbox/bwrap.js';
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
  signal?: AbortSignal;
}

export async function runHiddenTests(input: HiddenInput): Promise<HiddenRun> {
  const { task, commit } = input;
  const started = performance.now();
  const dir = fs.mkdtempSync(path.join(input.workRoot, `${task.id}-`));
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'booty-eval-home-'));
  const unseen = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, 'missing' as const]));
  const result = (part: Partial<HiddenRun> & Pick<HiddenRun, 'command' | 'problem'>): HiddenRun => {
    const failToPass = part.failToPass ?? unseen(task.hidden.failToPass);
    const passToPass = part.passToPass ?? unseen(task.hidden.passToPass);
    const all = [...Object.values(failToPass), ...Object.values(passToPass)];
    return {
      commit,
      exitCode: null,
      ...part,
      failToPass,
      passToPass,
      resolved: part.problem === null && all.every((s) => s === 'passed'),
      durationMs: Math.round(performance.now() - started),
    };
  };
  try {
    await git(['clone', '--quiet', '--shared', '--no-checkout', input.bare, dir]);
    await git(['checkout', '--quiet', '--detach', commit], { cwd: dir });
    let cfg: RepoConfig;
    try {
      cfg = configAt(dir);
    } catch (err) {
      return result({
        command: task.hidden.command ?? '',
        problem: `no test command: ${(err as Error).message}`,
      });
    }
    const command = task.hidden.command ?? cfg.test.command;
    if (task.hidden.patch) {
      try {
        await git(['apply', '--whitespace=nowarn', '-'], { cwd: dir, input: task.hidden.patch });
      } catch (err) {
        return result({ command, problem: `the hidden tests do not apply: ${(err as Error).message}` });
      }
    }
    for (const f of task.hidden.files) {
      fs.mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
      fs.writeFileSync(path.join(dir, f.path), f.content);
    }
    const exec = (run: { command: string; network: boolean; env?: Record<string, string> }) =>
      runCommand({
        cwd: dir,
        command: run.command,
        network: run.network,
        env: run.env,
        home,
        signal: input.signal,
        timeoutMs: cfg.timeoutSeconds * 1000,
        sandbox: input.sandbox,
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
    const reportDir = path.join(home, '.booty-reports');
    fs.mkdirSync(reportDir, { recursive: true });
    const plan = await planReporters({ command, cwd: dir, reportDir, configured: cfg.test.report ?? [] });
    await clearReports(plan, dir, [dir, home]);
    const run = await exec({ command: plan.command, network: false, env: plan.env });
    const report = await readResults({ plan, output: run.output, cwd: dir, roots: [dir, home] });
    const status = new Map(report.cases.map((c) => [c.id, c.status]));
    const statuses = (ids: string[]) =>
      Object.fromEntries(ids.map((id) => [id, status.get(id) ?? ('missing' as const)]));
    return result({
      command,
      problem: run.timedOut ? `the hidden tests timed out after ${cfg.timeoutSeconds} s` : null,
      exitCode: run.exitCode,
      failToPass: statuses(task.hidden.failToPass),
      passToPass: statuses(task.hidden.passToPass),
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
