import type { InspectionEvent } from 'xstate';
import { dailySpendCap } from '../effects/daily-spend-cap.js';
import { createJobRuntime, type JobRuntime } from '../effects/job-effects.js';
import { jobLogObserver } from '../engine/job-logging.js';
import { type JobObserver, Supervisor } from '../engine/supervisor.js';
import {
  type Env,
  isSelfRepo,
  jobSettingsFrom,
  leaseSettings,
  secretValues,
  servedForges,
  storeLocation,
  workerId,
} from '../env.js';
import { isBootyError } from '../errors.js';
import type { Forge } from '../forges/forge.js';
import { createMetrics, type GatewayMetrics } from '../gateway/metrics.js';
import { Intake } from '../intake/deliveries.js';
import type { Logger } from '../log.js';
import type { EffectImpls } from '../machines/effect-contract.js';
import type { SandboxMode } from '../sandbox/bwrap.js';
import { sandboxChoice } from '../sandbox/sandbox-mode.js';
import { scrubberOf } from '../secrets/scrub.js';
import type { EventStore } from '../store/event-store.js';
import { StoreHealth } from '../store/store-health.js';
import { Lifecycle } from './lifecycle.js';
import { openStore } from './open-store.js';
import { routedForge } from './routed-forge.js';

// The composition root: the one place that builds booty's parts from a config object. The store,
// the forge (the one place an adapter is picked), the effects, the observers, the supervisor that
// runs jobs with them and the intake that hands it work. `serve`, `run`, `demo`, `eval`, the
// benchmarks and the tests all start here, so they run the same wiring. Each part registers its
// close with the lifecycle (lifecycle.ts), which closes them in its documented order.

export interface BootyConfig {
  env: Env;
  log: Logger;
  /**
   * Effects to run instead of the real ones (tests and benchmarks): then no GitHub or Claude
   * client is built, and there is no progress comment.
   */
  effects?: Partial<EffectImpls>;
  /** An open store to use instead of opening env.BOOTY_DB; the caller keeps it and closes it. */
  store?: EventStore;
  /** A long-running server: checkpoints off the commit path, and logs every job's steps. */
  server?: boolean;
  concurrency?: number;
  metrics?: GatewayMetrics;
  /** More job observers, after the built-in ones. */
  observers?: JobObserver[];
  inspect?: (event: InspectionEvent) => void;
  clock?: () => number;
  /** How often a job held by BOOTY_MAX_USD_PER_DAY is looked at again within its day (default a minute). */
  holdRecheckMs?: number;
  /** The sandbox mode when BOOTY_SANDBOX does not say (serve: required; run and demo: auto). */
  defaultSandbox?: SandboxMode;
}

export interface Booty {
  env: Env;
  log: Logger;
  store: EventStore;
  supervisor: Supervisor;
  /** Where deliveries (and `booty run`, and the jobs API) hand work to the supervisor. */
  intake: Intake;
  metrics: GatewayMetrics;
  /** The forge; null when the config gave its own effects (tests and benchmarks). */
  forge: Forge | null;
  /** The real effects and the progress comments; null when the config gave its own effects. */
  runtime: JobRuntime | null;
  /** Whether the store takes writes: a server's, probed once `health.start()` runs. */
  health: StoreHealth | null;
  /** What the process closes, in order; the server and the lock register theirs here too. */
  lifecycle: Lifecycle;
  /** This worker's name in the log and on the jobs it runs (BOOTY_WORKER_ID, else host:pid). */
  worker: string;
  /** A drain under way ends now: running steps are handed back (a second SIGTERM). */
  hurry(): void;
  /** Stops the jobs (their logs keep them), flushes comments and clones, closes an owned store. */
  close(): Promise<void>;
}

type ForgeMaker = (options: {
  env: BootyConfig['env'];
  log: Logger;
  scrub: (text: string) => string;
  sandbox: ReturnType<typeof sandboxChoice>;
}) => Forge & { secrets: string[] };

/**
 * Builds booty's parts. Async for one reason: each forge adapter is loaded only where the env serves
 * it (a GitHub serve holds no GitLab code), and not at all with a config's own effects.
 */
export async function composeBooty(config: BootyConfig): Promise<Booty> {
  const served = servedForges(config.env);
  const makers = new Map<'github' | 'gitlab', ForgeMaker>();
  if (!config.effects)
    for (const name of served)
      makers.set(
        name,
        name === 'gitlab'
          ? (await import('../forges/gitlab/gitlab-forge.js')).createGitLabForge
          : (await import('../forges/github/github-forge.js')).createGitHubForge,
      );
  return composeWith(config, served, makers);
}

function composeWith(
  config: BootyConfig,
  served: ReturnType<typeof servedForges>,
  makers: Map<'github' | 'gitlab', ForgeMaker>,
): Booty {
  const { env } = config;
  const worker = workerId(env);
  // Every line names the worker: with many, a job's story is read across their logs.
  const log = config.log.child({ worker });
  const lifecycle = new Lifecycle((err, part) => log.error({ err, part }, 'could not close'));
  const store =
    config.store ??
    openStore(storeLocation(env), {
      server: config.server === true,
      leases: leaseSettings(env),
    });
  // A store the caller opened is the caller's to close.
  if (!config.store) lifecycle.on('store', 'event store', () => store.close());
  try {
    const metrics = config.metrics ?? createMetrics();
    let forge: (Forge & { secrets: string[] }) | null = null;
    // What booty holds is hidden wherever it could show (the App's key once the forge reads it).
    const scrub = scrubberOf(() => [...secretValues(env), ...(forge?.secrets ?? [])]);
    // Who chose the mode, for the notices that say the tests ran without bubblewrap.
    const sandbox = sandboxChoice(env.BOOTY_SANDBOX, config.defaultSandbox ?? 'auto');
    // The one place adapters are picked: BOOTY_FORGE, else each forge the env configures (env.ts);
    // with two, each job's calls go to its repository's forge (routed-forge.ts).
    const make = (name: 'github' | 'gitlab') => makers.get(name)!({ env, log, scrub, sandbox });
    forge = config.effects
      ? null
      : served.length === 1
        ? make(served[0]!)
        : routedForge({ github: make('github'), gitlab: make('gitlab') }, served[0]!).forge;
    const runtime = forge ? createJobRuntime({ env, log, store, forge, sandbox, scrub }) : null;
    const health = config.server
      ? new StoreHealth({
          store,
          // A SQLite file is watched for being deleted or replaced; a server database is not a file.
          file: config.store || env.BOOTY_DATABASE_URL ? undefined : env.BOOTY_DB,
          onWriteFailure: metrics.countStoreWriteFailure,
          onChange: (state, cause) => {
            if (state === 'ok') {
              log.info({ paused: supervisor.pausedJobs }, 'the database takes writes again: resuming jobs');
              supervisor.resumePaused();
            } else if (state === 'failing') {
              // Handled: the jobs resume by themselves once it takes writes.
              log.warn(
                { code: 'BOOTY_E_STORE_UNAVAILABLE', cause },
                'the database takes no writes: pausing jobs, refusing deliveries with 503',
              );
            } else {
              log.error(
                { cause, db: env.BOOTY_DB },
                'the database file was deleted or replaced: stopping all jobs',
              );
              void supervisor.shutdown();
            }
          },
        })
      : null;
    const clock = config.clock ?? Date.now;
    const gate =
      env.BOOTY_MAX_USD_PER_DAY === undefined
        ? undefined
        : dailySpendCap({
            capUsd: env.BOOTY_MAX_USD_PER_DAY,
            store,
            now: clock,
            say: runtime ? (job, body) => runtime.reporter.waits(job, body) : null,
            log,
            recheckMs: config.holdRecheckMs,
          });
    const supervisor = new Supervisor({
      gate,
      health: health ?? undefined,
      store,
      effects: config.effects ?? runtime!.effects,
      observeEffect: metrics.observeEffect,
      concurrency: config.concurrency ?? env.BOOTY_CONCURRENCY,
      settings: jobSettingsFrom(env),
      isSelf: (repo) => isSelfRepo(env, `${repo.owner}/${repo.name}`),
      observers: [
        metrics.jobObserver,
        ...(config.server ? [jobLogObserver(log)] : []),
        ...(runtime?.observers ?? []),
        ...(config.observers ?? []),
      ],
      inspect: config.inspect,
      onError: (err, jobId, level) => jobFault(log, err, jobId, level ?? levelOf(err, health)),
      note: (level, jobId, what, fields) => log[level]({ jobId, ...fields }, what),
      countLease: metrics.countLease,
      worker,
      clock,
    });
    const intake = new Intake(supervisor);
    if (health) lifecycle.on('refuse', 'store health', () => health.stop());
    lifecycle.on('jobs', 'jobs', async () => {
      // A server's running steps finish first, within the drain (BOOTY_DRAIN_MS). Then the jobs
      // stop (no outcome is written after this), and what they were waiting on is cut short:
      // forge requests and spare clones. The logs resume the jobs next start, or on another worker.
      const drainMs = config.server ? env.BOOTY_DRAIN_MS : 0;
      const running = supervisor.running.length;
      if (drainMs > 0 && running > 0)
        log.info(
          { drainMs, running },
          `draining: running steps may take up to ${drainMs / 1000} s to finish (BOOTY_DRAIN_MS); give the process manager more than that and BOOTY_SHUTDOWN_GRACE_MS; a second SIGTERM hands them back at once`,
        );
      const stopped = supervisor.shutdown({ drainMs });
      const report = await stopped;
      runtime?.stop();
      if (report.finishedStep.length > 0 || report.handedBack.length > 0)
        log.info(
          report,
          report.handedBack.length > 0
            ? `stopped: ${report.finishedStep.length} job(s) finished their step; handed back ${report.handedBack.length}, which resume from their logs`
            : `stopped: ${report.finishedStep.length} job(s) finished their step`,
        );
      await intake.flushIgnored();
      await runtime?.idle();
    });
    const close = () => lifecycle.close();
    const hurry = () => supervisor.hurry();
    return {
      env,
      log,
      store,
      supervisor,
      intake,
      metrics,
      forge,
      runtime,
      health,
      lifecycle,
      worker,
      hurry,
      close,
    };
  } catch (err) {
    void lifecycle.close();
    throw err;
  }
}

/**
 * A job's fault at its level: `warn` for what booty handles itself (a store that takes no writes
 * pauses the job, which resumes; a lapsed lease's job resumes elsewhere), with its code; `error`
 * for what a person must look at.
 */
function jobFault(log: Logger, err: unknown, jobId: string, level: 'warn' | 'error') {
  const code = isBootyError(err) ? err.code : (err as { code?: unknown } | null)?.code;
  const line = jobId ? log.child({ jobId }) : log;
  if (level === 'warn') line.warn({ code }, String((err as Error | null)?.message ?? err));
  else line.error({ code, err }, 'job error');
}

const levelOf = (err: unknown, health: StoreHealth | null): 'warn' | 'error' =>
  health?.isFault(err) ? 'warn' : 'error';
