import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { BootyError } from '../errors.js';
import type { FileChange, QualityRun, RepoConfig, TestCase, TestRun } from '../events/effect-results.js';
import type { EffectImpl } from '../machines/effect-contract.js';
import type { EffectInput, JobContext } from '../machines/job-context.js';
import { classifyRun } from '../refine/failure-class.js';
import { baselineProblem, commandRan } from './baseline-health.js';
import type { SandboxMode } from './bwrap.js';
import { touchedTests } from './changed-tests.js';
import { cleanOutput } from './clean-output.js';
import { seedGoCache } from './go-seed.js';
import { homeManifest, inBuildCache, settleHome } from './home-state.js';
import { readInstallRecord, writeInstallRecord } from './install-record.js';
import {
  buildCodeChanged,
  forgetHomeSettings,
  installPlan,
  isManifest,
  offRegistryDependencies,
} from './install-step.js';
import { tailOf } from './output-cap.js';
import { qualityVerdict, unjudgeableOnBase } from './quality-compare.js';
import { baselineQuality, changeQuality, type QualityStepInput } from './quality-step.js';
import { totalsOf } from './reports/case-list.js';
import { readResults } from './reports/read-results.js';
import { clearReports, planReporters } from './reports/reporter-plan.js';
import { type CommandResult, runCommand } from './run-command.js';
import { runnerSeen } from './runner-seen.js';
import { strictest } from './sandbox-mode.js';
import { describeExit, failingIds, judge } from './test-verdict.js';

// The two effects that run the repository's tests: once on the base commit (the baseline), and
// after every applied attempt. Each run is read from the framework's own report where booty can get
// one, and recorded case by case; the verdict needs positive evidence. The install step runs when
// the workspace is new or a manifest changed, into a HOME kept for the whole job; what it writes
// stays for every later run (install-record.ts), and so does what the baseline put in a build cache
// there; nothing else a run wrote in HOME does (home-state.ts). Tests never have network, and each
// run starts from exactly the logged change (workspace.treeForRun).

export interface TestEffectsOptions {
  workspace: {
    /** The job's work tree as base + logged changes (rebuilt from the log if it is gone), for a run. */
    treeForRun: (job: JobContext) => Promise<string>;
    /** What is untracked in the job's tree besides the change's files: after an install, its output. */
    untrackedOutputs: (job: JobContext) => Promise<string[]>;
    /** The job's sandbox HOME. */
    home: (job: JobContext) => Promise<string>;
    /** A reader of files at the base commit (null where absent); the named files are read at once. */
    readBase: (
      job: JobContext,
      prefetch: readonly string[],
    ) => Promise<(file: string) => Promise<string | null>>;
  };
  /** The operator's sandbox mode (BOOTY_SANDBOX); a repository may only ask for stricter. */
  sandbox?: SandboxMode;
  /** Read-only paths the operator adds to the sandbox (BOOTY_SANDBOX_RO_PATHS). */
  roPaths?: readonly string[];
  /** Removes secrets from anything kept from a run. */
  scrub?: (text: string) => string;
  /** Where PATH and the toolchains come from (booty's own environment by default). */
  parentEnv?: NodeJS.ProcessEnv;
  /** Variables the install and test commands get too (BOOTY_SANDBOX_ENV). */
  passEnv?: Readonly<Record<string, string>>;
  /** booty's own cache folder, where the Go seed is kept (go-seed.ts; `~/.cache/booty` by default). */
  cacheDir?: string;
  outputCapBytes?: number;
  outputTailChars?: number;
  killGraceMs?: number;
  bwrapPath?: string;
}

type Run = Omit<TestRun, 'at'>;

const MESSAGE_CHARS = 2_000;
const NAME_CHARS = 500;

const NETWORK_ERROR =
  /\b(ECONNRESET|ETIMEDOUT|EAI_AGAIN|ENOTFOUND|ECONNREFUSED|socket hang up|network error|Temporary failure in name resolution|503 Service Unavailable|502 Bad Gateway)\b/i;

interface FailedInstall {
  command: string;
  status: string;
  tail: string;
  network: boolean;
  sandbox: CommandResult['sandbox'];
}

export function createTestEffects(options: TestEffectsOptions) {
  const tailChars = options.outputTailChars ?? 10_000;

  function config(input: EffectInput): RepoConfig {
    if (!input.job.config) {
      throw new BootyError('BOOTY_E_EFFECT_FAILED', {
        src: input.step,
        reason: 'the job has no repository config yet',
      });
    }
    return input.job.config;
  }

  async function exec(
    cfg: RepoConfig,
    run: {
      dir: string;
      home: string;
      command: string;
      network: boolean;
      env?: Record<string, string>;
      timeoutMs?: number;
    },
    signal: AbortSignal,
  ): Promise<CommandResult> {
    return runCommand({
      cwd: run.dir,
      command: run.command,
      network: run.network,
      home: run.home,
      env: run.env,
      signal,
      timeoutMs: run.timeoutMs ?? cfg.timeoutSeconds * 1000,
      sandbox: sandboxOf(cfg),
      roPaths: options.roPaths,
      parentEnv: options.parentEnv,
      passEnv: options.passEnv,
      outputCapBytes: options.outputCapBytes,
      killGraceMs: options.killGraceMs,
      bwrapPath: options.bwrapPath,
      readOnly: [path.join(run.dir, '.git')],
    });
  }

  const sandboxOf = (cfg: RepoConfig) => strictest(options.sandbox ?? 'auto', cfg.sandbox);

  const clean = (text: string, dir: string, home: string) =>
    cleanOutput(text, { workspace: dir, home, scrub: options.scrub });

  /** The quality commands' run in this job's sandbox, or null when the config names none. */
  function qualityStep(
    job: JobContext,
    cfg: RepoConfig,
    home: string,
    signal: AbortSignal,
  ): QualityStepInput | null {
    const commands = cfg.quality?.commands ?? [];
    if (commands.length === 0) return null;
    return {
      commands,
      tree: () => options.workspace.treeForRun(job),
      exec: (dir, command) => exec(cfg, { dir, home, command, network: false }, signal),
      clean: (output, dir) => clean(output, dir, home),
    };
  }

  /** Why an install for the change's manifests may not run with network, or null. */
  async function refusal(job: JobContext): Promise<string | null> {
    const script = buildCodeChanged(job.changes);
    if (script) {
      return `${script} is a build script the change wrote; booty does not run it with network access. Leave it as it is, or have a human make that change.`;
    }
    const offRegistry = await offRegistryDependencies(
      job.changes,
      await options.workspace.readBase(job, job.changes.map((c) => c.path).filter(isManifest)),
    );
    if (offRegistry.length) {
      return `these dependencies would be fetched from outside the package registry, which booty does not do for a change: ${offRegistry.join('; ')}. Use a published version, or have a human make that change.`;
    }
    return null;
  }

  /** Runs the install step if the workspace needs it; the failed result if it failed. */
  async function install(
    job: JobContext,
    cfg: RepoConfig,
    dir: string,
    home: string,
    signal: AbortSignal,
  ): Promise<FailedInstall | null> {
    const record = await readInstallRecord(dir);
    // Whatever a test run left in HOME goes before anything runs there again; a test that
    // damaged what the install made there has it made again.
    const settled = await settleHome(home, record?.home ?? {}, record?.caches);
    const installed = settled.damaged ? null : (record?.digest ?? null);
    const plan = await installPlan(dir, cfg, job.changes, installed);
    if (!plan) return null;
    if (plan.untrusted) {
      const refused = await refusal(job);
      if (refused)
        return {
          command: plan.command,
          status: 'was not run',
          tail: refused,
          network: false,
          sandbox: 'none',
        };
      await forgetHomeSettings(home);
    }
    const result = await exec(
      cfg,
      { dir, home, command: plan.command, network: true, env: plan.env },
      signal,
    );
    if (result.exitCode === 0 && !result.timedOut) {
      // What it left untracked in the tree stays through every reset, .gitignore or not.
      const tree = await options.workspace.untrackedOutputs(job);
      const caches = record?.caches ?? {};
      await writeInstallRecord(dir, { digest: plan.digest, tree, home: await homeManifest(home), caches });
      return null;
    }
    const output = clean(result.output, dir, home);
    return {
      command: plan.command,
      status: describeExit(result),
      tail: tailOf(output, 2_000),
      network: NETWORK_ERROR.test(output),
      sandbox: result.sandbox,
    };
  }

  /**
   * The baseline ran the base commit's own tests, trusted as its install is: the build caches it
   * filled stay for the job's later runs, checked entry by entry as the install's output is.
   */
  async function keepBuildCaches(dir: string, home: string): Promise<void> {
    const caches = await homeManifest(home, inBuildCache);
    if (Object.keys(caches).length === 0) return;
    const record = await readInstallRecord(dir);
    await writeInstallRecord(dir, {
      digest: record?.digest ?? null,
      tree: record?.tree ?? [],
      home: record?.home ?? {},
      caches,
    });
  }

  /** Runs the test command with the framework's reporter added, and reads what it reported. */
  async function testRun(cfg: RepoConfig, dir: string, home: string, signal: AbortSignal) {
    await seedGoCache({
      home,
      dir,
      command: cfg.test.command,
      searchPath: (options.parentEnv ?? process.env).PATH ?? '',
      sandbox: sandboxOf(cfg),
      bwrapPath: options.bwrapPath,
      run: (seed) => exec(cfg, { ...seed, dir: seed.cwd, network: false }, seed.signal),
      signal,
      cacheDir: options.cacheDir,
    });
    const reportDir = path.join(home, '.booty-reports');
    await rm(reportDir, { recursive: true, force: true });
    await mkdir(reportDir, { recursive: true });
    const plan = await planReporters({
      command: cfg.test.command,
      cwd: dir,
      reportDir,
      configured: cfg.test.report ?? [],
    });
    await clearReports(plan, dir, [dir, home]);
    const result = await exec(
      cfg,
      { dir, home, command: plan.command, network: false, env: plan.env },
      signal,
    );
    const report = await readResults({ plan, output: result.output, cwd: dir, roots: [dir, home] });
    const output = clean(report.text ?? result.output, dir, home);
    // Names come from the tests too: a test may be named after anything it found.
    const text = (t: string, max: number) => clean(t, dir, home).slice(0, max);
    const cases = report.cases.map(
      (c): TestCase => ({
        ...c,
        id: text(c.id, NAME_CHARS),
        name: text(c.name, NAME_CHARS),
        file: c.file === null ? null : text(c.file, NAME_CHARS),
        message: c.message === null ? null : text(c.message, MESSAGE_CHARS),
      }),
    );
    const loadErrors = report.loadErrors.map((e) => ({
      file: text(e.file, NAME_CHARS),
      message: text(e.message, MESSAGE_CHARS),
    }));
    const ran = commandRan({ exitCode: result.exitCode, output, cases });
    const facts = {
      command: cfg.test.command,
      ran,
      exitCode: result.exitCode,
      signal: result.signal,
      timedOut: result.timedOut,
      durationMs: result.durationMs,
      outputTail: tailOf(output, tailChars),
      source: report.cases.length || report.loadErrors.length ? report.source : 'none',
      cases,
      loadErrors,
      totals: totalsOf(cases),
      sandbox: result.sandbox,
    } as const;
    return { facts, output, runner: plan.runner };
  }

  const runBaseline: EffectImpl<'runBaseline'> = async (input, { signal }): Promise<Run> => {
    const cfg = config(input);
    const { job } = input;
    const dir = await options.workspace.treeForRun(job);
    const home = await options.workspace.home(job);
    const failedInstall = await install(job, cfg, dir, home, signal);
    if (failedInstall) {
      const { command, status, tail } = failedInstall;
      // A registry that did not answer may answer later; anything else is the repository's setup.
      if (failedInstall.network) throw new BootyError('BOOTY_E_INSTALL_NETWORK', { command, tail });
      throw new BootyError('BOOTY_E_INSTALL_FAILED', { command, status, tail });
    }
    const { facts, output, runner } = await testRun(cfg, dir, home, signal);
    await keepBuildCaches(dir, home);
    // Which runner booty saw, for a baseline it could read nothing from.
    const unread = facts.cases.length === 0 && facts.loadErrors.length === 0;
    const seen = unread ? await runnerSeen(cfg.test.command, dir, runner) : undefined;
    const broken = baselineProblem({ ...facts, output }, { gate: cfg.gate, runner: seen });
    // What the quality commands show before any change, for the comparison after each one.
    const step = broken ? null : qualityStep(job, cfg, home, signal);
    const quality = step ? await baselineQuality(step) : null;
    return {
      ...facts,
      broken,
      verdict: broken ? 'unknown' : 'pass',
      reasons: [],
      passed: broken === null,
      failingTests: failingIds(facts),
      newFailures: [],
      baselineFailures: failingIds(facts),
      changedTests: [],
      addedTestsFailing: [],
      ...(quality && { quality }),
    };
  };

  const runTests: EffectImpl<'runTests'> = async (input, { signal }): Promise<Run> => {
    const cfg = config(input);
    const { job } = input;
    const dir = await options.workspace.treeForRun(job);
    const home = await options.workspace.home(job);
    const failedInstall = await install(job, cfg, dir, home, signal);
    if (failedInstall) return classified(installFailed(cfg, failedInstall, job), job);
    const { facts } = await testRun(cfg, dir, home, signal);
    const readBase = await options.workspace.readBase(
      job,
      job.changes.map((c) => c.path),
    );
    const touched = touchedTests(
      await Promise.all(
        job.changes.map(async (c: FileChange) => ({
          path: c.path,
          before: await readBase(c.path),
          after: c.content,
        })),
      ),
      // A file the runner named tests in is a test file, wherever it sits.
      new Set(facts.cases.flatMap((c) => (c.file === null ? [] : [c.file]))),
    );
    const judgement = judge({ baseline: job.baseline, run: facts, touched, gate: cfg.gate });
    // Quality commands run once the tests pass: a failing test is the root cause to fix first. A
    // baseline with no quality record ran before booty had quality commands: the job keeps the gate
    // it started with, as nothing on the base commit could be compared with.
    const gated = judgement.verdict === 'pass' && job.baseline?.quality !== undefined;
    const step = gated ? qualityStep(job, cfg, home, signal) : null;
    if (!step)
      return classified({ ...facts, broken: null, ...judgement, passed: judgement.verdict === 'pass' }, job);
    const quality = await changeQuality(step, job.baseline?.quality);
    const verdict = qualityVerdict(quality);
    const run: Run = { ...facts, broken: null, ...judgement, verdict, passed: verdict === 'pass', quality };
    return run.passed ? run : { ...run, failureClass: qualityClass(run, quality, job) };
  };

  return { runBaseline, runTests };
}

/** A run that did not pass says why, in the log, so a replay routes it the same way for good. */
const classified = (run: Run, job: JobContext): Run =>
  run.passed
    ? run
    : { ...run, failureClass: classifyRun(run, { baseline: job.baseline, changedPaths: changedPaths(job) }) };

const changedPaths = (job: JobContext) => job.changes.map((c) => c.path);

/** A run whose tests passed and whose quality did not: classed by what the quality commands printed. */
function qualityClass(run: Run, quality: QualityRun[], job: JobContext) {
  const base = job.baseline?.quality ?? [];
  const blocking = quality.filter((q) => q.verdict !== 'pass');
  // Nothing another attempt could change: booty cannot judge the commands on this repository.
  const onBase = (q: QualityRun) => base.find((b) => b.command === q.command);
  if (blocking.length > 0 && blocking.every((q) => unjudgeableOnBase(onBase(q), q)))
    return 'environment' as const;
  // Read as a test run is: the environment's doing only where the same commands failed alike on
  // the base commit.
  const after = { ...run, timedOut: blocking.some((q) => q.timedOut), ...asOneRun(blocking) };
  const before = { ...asOneRun(blocking.map(onBase)), cases: [], loadErrors: [] };
  return classifyRun(after, { baseline: before, changedPaths: changedPaths(job) });
}

/** Quality commands' runs as one: their output, and the status of one the shell could not start. */
function asOneRun(runs: (QualityRun | undefined)[]) {
  const unstarted = runs.find((q) => q?.exitCode === 126 || q?.exitCode === 127);
  return {
    outputTail: runs.map((q) => q?.outputTail ?? '').join('\n'),
    ran: !unstarted,
    exitCode: (unstarted ?? runs[0])?.exitCode ?? null,
  };
}

/** An install that failed after the change touched a manifest: the change broke it. */
function installFailed(cfg: RepoConfig, failed: FailedInstall, job: JobContext): Run {
  const message = `the install command \`${failed.command}\` ${failed.status}`;
  return {
    command: cfg.test.command,
    ran: false,
    exitCode: null,
    signal: null,
    timedOut: false,
    durationMs: 0,
    outputTail: failed.tail,
    source: 'none',
    cases: [],
    loadErrors: [],
    totals: totalsOf([]),
    broken: null,
    verdict: 'fail',
    reasons: [{ code: 'install-failed', level: 'fail', message, tests: [] }],
    passed: false,
    failingTests: [],
    newFailures: [message],
    baselineFailures: job.baseline ? failingIds(job.baseline) : [],
    changedTests: [],
    addedTestsFailing: [],
    sandbox: failed.sandbox,
  };
}
