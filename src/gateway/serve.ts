import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { InspectionEvent } from 'xstate';
import { type JobObserver, Supervisor } from '../actors/supervisor.js';
import { type Env, jobSettingsFrom } from '../env.js';
import type { Logger } from '../log.js';
import type { JobMachine } from '../machines/job.js';
import type { EventStore } from '../store/event-store.js';
import { openStore } from '../store/open-store.js';
import { buildApp } from './app.js';
import { gatewayConfig } from './gateway-config.js';
import { jobLogObserver } from './job-logging.js';
import { createMetrics, type GatewayMetrics } from './metrics.js';
import { probe, probeDatabase } from './readiness.js';

// `booty serve` in one call: the store, the supervisor and the HTTP server in one process. The
// supervisor boots after the listener is up, so resumed jobs and new deliveries share one queue.

export interface ServeOptions {
  env: Env;
  /** The job machine with its effects provided. */
  machine: JobMachine;
  log: Logger;
  /** An open store to use instead of opening env.BOOTY_DB. The caller keeps it and closes it. */
  store?: EventStore;
  /** Created here unless given; give it to share `observeEffect` with `toActors` before start. */
  metrics?: GatewayMetrics;
  /** More job observers, e.g. the progress comment; the metrics and log observers are built in. */
  observers?: JobObserver[];
  inspect?: (event: InspectionEvent) => void;
  clock?: () => number;
}

export interface RunningServer {
  url: string;
  port: number;
  app: FastifyInstance;
  supervisor: Supervisor;
  store: EventStore;
  metrics: GatewayMetrics;
  /** Stops the listener, then the jobs (their logs keep them for the next start), then the store. */
  close(): Promise<void>;
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const { env, log } = options;
  // Checked before anything opens, so a bad setting leaves no port or file behind.
  const config = gatewayConfig(env);
  const store = options.store ?? openStore(env.BOOTY_DB, { server: true });
  const ownsStore = options.store === undefined;
  const metrics = options.metrics ?? createMetrics();
  metrics.watchStore(store);

  const supervisor = new Supervisor({
    store,
    machine: options.machine,
    concurrency: env.BOOTY_CONCURRENCY,
    settings: jobSettingsFrom(env),
    isSelf: (repo) => config.isSelfRepo(`${repo.owner}/${repo.name}`),
    observers: [metrics.jobObserver, jobLogObserver(log), ...(options.observers ?? [])],
    inspect: options.inspect,
    onError: (err, jobId) => log.child({ jobId }).error({ err }, 'job error'),
    clock: options.clock,
  });

  let closing = false;
  const app = await buildApp({
    config,
    supervisor,
    store,
    metrics,
    log,
    readiness: () => [
      probeDatabase(store),
      probe('config', () => gatewayConfig(env)),
      closing ? { name: 'accepting', ok: false, reason: 'shutting down' } : { name: 'accepting', ok: true },
    ],
  });

  let closed: Promise<void> | null = null;
  const close = () => {
    closed ??= (async () => {
      closing = true;
      try {
        await app.close();
        await supervisor.shutdown();
      } finally {
        if (ownsStore) store.close();
      }
    })();
    return closed;
  };

  try {
    await app.listen({ host: env.HOST, port: env.PORT });
    await supervisor.boot();
  } catch (err) {
    await close();
    throw err;
  }
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://${urlHost(env.HOST)}:${port}`, port, app, supervisor, store, metrics, close };
}

/** A host a client can reach: the wildcard addresses mean this machine. */
function urlHost(host: string) {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

export interface SignalOptions {
  log: Logger;
  signals?: NodeJS.Signals[];
  /** How long close() may take before the process exits anyway. */
  graceMs?: number;
  exit?: (code: number) => void;
}

/**
 * On SIGTERM or SIGINT: stop taking deliveries, stop the jobs (their logs resume them on the next
 * start), close the store, exit 0. A second signal, or a close that outlasts the grace, exits 1.
 * Returns a function that removes the handlers.
 */
export function installShutdownSignals(server: Pick<RunningServer, 'close'>, options: SignalOptions) {
  const { log, signals = ['SIGTERM', 'SIGINT'], graceMs = 15_000 } = options;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let shuttingDown = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (shuttingDown) {
      log.warn({ signal }, 'second signal: exiting without waiting');
      exit(1);
      return;
    }
    shuttingDown = true;
    log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      log.error({ graceMs }, 'shutdown took too long: exiting');
      exit(1);
    }, graceMs);
    timer.unref();
    server.close().then(
      () => {
        clearTimeout(timer);
        log.info('stopped');
        exit(0);
      },
      (err: unknown) => {
        clearTimeout(timer);
        log.error({ err }, 'shutdown failed');
        exit(1);
      },
    );
  };
  for (const s of signals) process.on(s, onSignal);
  return () => {
    for (const s of signals) process.off(s, onSignal);
  };
}
