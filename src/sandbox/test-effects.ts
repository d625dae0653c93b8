import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EffectImpl } from '../actors/effect.js';
import { BootyError } from '../errors.js';
import type { RepoConfig, TestRun } from '../events/effect-results.js';
import type { EffectInput, JobContext } from '../machines/job-context.js';
import { tailOf } from './output-cap.js';
import { type CommandResult, runCommand } from './run-command.js';
import { parseFailingTests } from './test-output-parsers.js';
import { judge, type RunFacts } from './test-verdict.js';

// The two effects that run the repository's tests: once on the base commit (the baseline), and
// after every applied attempt. The install step runs with network when the workspace has not been
// installed yet (a fresh or rebuilt clone) or a manifest changed; the tests never have network.

export interface TestEffectsOptions {
  /** The job's workspace directory, rebuilt from the log if it is gone. */
  workspace: { ensure: (job: JobContext) => Promise<string> };
  outputCapBytes?: number;
  outputTailChars?: number;
  killGraceMs?: number;
  bwrapPath?: string;
}

type Run = Omit<TestRun, 'at'>;

const MANIFESTS = [
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pyproject.toml',
  'requirements.txt',
  'go.mod',
  'go.sum',
  'Cargo.toml',
  'Cargo.lock',
];
/** Written outside the sandbox's reach (.git is read-only inside it). */
const MARKER = path.join('.git', 'booty-installed');

const NETWORK_ERROR =
  /\b(ECONNRESET|ETIMEDOUT|EAI_AGAIN|ENOTFOUND|ECONNREFUSED|socket hang up|network error|Temporary failure in name resolution|503 Service Unavailable|502 Bad Gateway)\b/i;

async function manifestDigest(dir: string, installCommand: string): Promise<string> {
  const hash = createHash('sha256').update(installCommand);
  for (const name of MANIFESTS) {
    const content = await readFile(path.join(dir, name)).catch(() => null);
    hash.update(`\0${name}\0`).update(content ?? '-');
  }
  return hash.digest('hex');
}

const describeExit = (r: CommandResult) =>
  r.timedOut ? 'timed out' : r.signal ? `was killed by ${r.signal}` : `exited with ${r.exitCode}`;

export function createTestEffects(options: TestEffectsOptions) {
  const tailChars = options.outputTailChars ?? 10_000;

  const exec = (
    dir: string,
    config: RepoConfig,
    command: string,
    network: boolean,
    home: string,
    signal: AbortSignal,
  ) =>
    runCommand({
      cwd: dir,
      command,
      network,
      home,
      signal,
      timeoutMs: config.timeoutSeconds * 1000,
      sandbox: config.sandbox,
      outputCapBytes: options.outputCapBytes,
      killGraceMs: options.killGraceMs,
      bwrapPath: options.bwrapPath,
      readOnly: [path.join(dir, '.git')],
    });

  async function withHome<T>(fn: (home: string) => Promise<T>): Promise<T> {
    const home = await mkdtemp(path.join(tmpdir(), 'booty-home-'));
    try {
      return await fn(home);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }

  /** Runs the install step if this workspace needs it; the failed result if it failed. */
  async function install(dir: string, config: RepoConfig, home: string, signal: AbortSignal) {
    if (!config.install) return null;
    const digest = await manifestDigest(dir, config.install.command);
    const marker = await readFile(path.join(dir, MARKER), 'utf8').catch(() => null);
    if (marker === digest) return null;
    const result = await exec(dir, config, config.install.command, true, home, signal);
    if (result.exitCode === 0 && !result.timedOut) {
      await writeFile(path.join(dir, MARKER), digest);
      return null;
    }
    return result;
  }

  function config(input: EffectInput): RepoConfig {
    if (!input.job.config) {
      throw new BootyError('BOOTY_E_EFFECT_FAILED', {
        src: input.step,
        reason: 'the job has no repository config yet',
      });
    }
    return input.job.config;
  }

  function toRun(result: CommandResult, command: string, dir: string) {
    const failingTests = parseFailingTests(result.output, dir);
    const facts: RunFacts = {
      exitCode: result.exitCode,
      signal: result.signal,
      timedOut: result.timedOut,
      failingTests,
    };
    return {
      facts,
      base: {
        command,
        exitCode: result.exitCode,
        signal: result.signal,
        timedOut: result.timedOut,
        durationMs: result.durationMs,
        outputTail: tailOf(result.output, tailChars),
        failingTests,
        sandbox: result.sandbox,
      },
    };
  }

  const runBaseline: EffectImpl<'runBaseline'> = async (input, { signal }): Promise<Run> => {
    const cfg = config(input);
    const dir = await options.workspace.ensure(input.job);
    return withHome(async (home) => {
      const failedInstall = await install(dir, cfg, home, signal);
      if (failedInstall) {
        const command = cfg.install!.command;
        const tail = tailOf(failedInstall.output, 2_000);
        if (NETWORK_ERROR.test(failedInstall.output)) {
          throw new BootyError('BOOTY_E_INSTALL_NETWORK', { command, tail });
        }
        throw new BootyError('BOOTY_E_INSTALL_FAILED', {
          command,
          status: describeExit(failedInstall),
          tail,
        });
      }
      const result = await exec(dir, cfg, cfg.test.command, false, home, signal);
      const { facts, base } = toRun(result, cfg.test.command, dir);
      const failed = facts.timedOut || facts.exitCode !== 0;
      return {
        ...base,
        passed: !failed,
        newFailures: [],
        baselineFailures: facts.failingTests,
        addedTestsFailing: [],
      };
    });
  };

  const runTests: EffectImpl<'runTests'> = async (input, { signal }): Promise<Run> => {
    const cfg = config(input);
    const { job } = input;
    const dir = await options.workspace.ensure(job);
    return withHome(async (home) => {
      const failedInstall = await install(dir, cfg, home, signal);
      if (failedInstall) {
        const { base } = toRun(failedInstall, cfg.install!.command, dir);
        return {
          ...base,
          failingTests: [],
          passed: false,
          newFailures: [`the install command \`${cfg.install!.command}\` ${describeExit(failedInstall)}`],
          baselineFailures: job.baseline?.failingTests ?? [],
          addedTestsFailing: [...job.addedTests],
        };
      }
      const result = await exec(dir, cfg, cfg.test.command, false, home, signal);
      const { facts, base } = toRun(result, cfg.test.command, dir);
      const goMod = await readFile(path.join(dir, 'go.mod'), 'utf8').catch(() => '');
      const verdict = judge({
        run: facts,
        baseline: job.baseline,
        addedTests: job.addedTests,
        unnamedFailure: `\`${cfg.test.command}\` ${describeExit(result)} and its output names no failing test`,
        goModule: /^module\s+(\S+)/m.exec(goMod)?.[1] ?? null,
      });
      return { ...base, ...verdict };
    });
  };

  return { runBaseline, runTests };
}
