import type { InspectionEvent } from 'xstate';
import { createJobRuntime, type JobRuntime } from '../effects/job-effects.js';
import { jobLogObserver } from '../engine/job-logging.js';
import { type JobObserver, Supervisor } from '../engine/supervisor.js';
import { type Env, isSelfRepo, jobSettingsFrom, leaseSettings, storeLocation } from '../env.js';
import { type GatewayConfig, gatewayConfig } from '../gateway/gateway-config.js';
import { createMetrics, type GatewayMetrics } from '../gateway/metrics.js';
import type { Logger } from '../log.js';
import type { EffectImpls } from '../machines/effect-contract.js';
import type { SandboxMode } from '../sandbox/bwrap.js';
import type { EventStore } from '../store/event-store.js';
import { StoreHealth } from '../store/store-health.js';
import { lockStore, openStore } from './open-store.js';
import { type RunningServer, startServer } from './serve.js';

// The composition root: the one place that builds booty's parts from a config object. The store,
// the clients and effects, the observers and the supervisor that runs jobs with them. `serve`,
// `run`, `demo`, the benchmarks and the tests all start here, so they run the same wiring.

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
  /** The sandbox mode when BOOTY_SANDBOX does not say (serve: required; run and demo: auto). */
  defaultSandbox?: SandboxMode;
  /** The gateway config, when the caller checked the env already (serve, before its sandbox probe). */
  gateway?: GatewayConfig;
}

export interface Booty {
  env: Env;
  log: Logger;
  store: EventStore;
  supervisor: Supervisor;
  metrics: GatewayMetrics;
  /** The real effects and their clients; null when the config gave its own effects. */
  runtime: JobRuntime | null;
  /** Whether the store takes writes: a server's, probed once `health.start()` runs. */
  health: StoreHealth | null;
  /** Stops the jobs (their logs keep them), flushes comments and clones, closes an owned store. */
  close(): Promise<void>;
}

export function composeBooty(config: BootyConfig): Booty {
  const { env, log } = config;
  const store =
    config.store ??
    openStore(storeLocation(env), {
      server: config.server === true,
      leases: leaseSettings(env),
    });
  try {
    const metrics = config.metrics ?? createMetrics();
    const runtime = config.effects
      ? null
      : createJobRuntime({
          env,
          log,
          store,
          defaultSandbox: config.defaultSandbox,
        });
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
              log.error(
                { cause },
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
    const supervisor = new Supervisor({
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
      onError: (err, jobId) => log.child({ jobId }).error({ err }, 'job error'),
      clock: config.clock,
    });
    let closed: Promise<void> | null = null;
    const close = () => {
      closed ??= (async () => {
        health?.stop();
        try {
          // Jobs stop first (no outcome is written after this), then what they were waiting on
          // is cut short: GitHub requests and spare clones. The logs resume the jobs next start.
          const stopped = supervisor.shutdown();
          runtime?.stop();
          await stopped;
          await runtime?.idle();
        } finally {
          if (!config.store) await store.close();
        }
      })();
      return closed;
    };
    return { env, log, store, supervisor, metrics, runtime, health, close };
  } catch (err) {
    if (!config.store) void store.close();
    throw err;
  }
}

/** `booty serve` and `booty demo`: composed as a server, behind the HTTP gateway. */
export async function startBooty(config: BootyConfig): Promise<Booty & { server: RunningServer }> {
  // Checked before anything opens, so a bad setting leaves no port or file behind: once, as the
  // check reads the App's key and writes to the workdir.
  const gateway = config.gateway ?? gatewayConfig(config.env);
  // One writing booty per database: a second waits for the first to exit (a rolling deploy).
  const lock = config.store
    ? null
    : await lockStore(storeLocation(config.env), { waitMs: config.env.BOOTY_LOCK_WAIT_MS });
  try {
    const booty = composeBooty({ ...config, server: true });
    const server = await startServer(booty, gateway);
    const close = () => server.close().finally(() => lock?.release());
    return { ...booty, server: { ...server, close }, close };
  } catch (err) {
    lock?.release();
    throw err;
  }
}
