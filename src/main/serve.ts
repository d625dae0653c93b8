import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Supervisor } from '../engine/supervisor.js';
import { BootyError } from '../errors.js';
import { webhookConversation } from '../forges/github/webhook-conversation.js';
import { buildApp } from '../gateway/app.js';
import { type GatewayConfig, gatewayConfig } from '../gateway/gateway-config.js';
import type { ReadIssue } from '../gateway/jobs-write-routes.js';
import type { GatewayMetrics } from '../gateway/metrics.js';
import { checkJobPrerequisites, databaseReady, probe } from '../gateway/readiness.js';
import { type DeliveryCatchUp, startDeliveryCatchUp } from '../intake/delivery-catch-up.js';
import type { Logger } from '../log.js';
import { isLoopbackHost } from '../loopback.js';
import type { EventStore } from '../store/event-store.js';
import { apiTokensOf } from '../store/open-api-tokens.js';
import { dashboardServed } from '../views/job-link.js';
import type { Booty } from './compose.js';

// The HTTP face of a composed booty (main/compose.ts): the gateway app over its supervisor and
// store. The supervisor boots after the listener is up, so resumed jobs and new deliveries share
// one queue.

export interface RunningServer {
  url: string;
  port: number;
  app: FastifyInstance;
  supervisor: Supervisor;
  store: EventStore;
  metrics: GatewayMetrics;
  /** Whether the job view and list are served (`/`, `/jobs/:id/view`). */
  dashboard: boolean;
  /** The jobs that resumed from their logs at start. */
  resumed: string[];
  /** The catch-up of webhook deliveries missed while booty was down; null without a GitHub App. */
  catchUp: DeliveryCatchUp | null;
  /** Stops the listener, then the jobs (their logs keep them for the next start), then the store. */
  close(): Promise<void>;
}

/**
 * `checked`: the gateway config when the caller has already checked the env (startBooty has).
 * `readIssue`: how `POST /jobs` reads an issue, where booty has no GitHub client of its own (a test's
 * effects); the runtime's GitHub effects otherwise.
 */
export async function startServer(
  booty: Booty,
  checked?: GatewayConfig,
  readIssue?: ReadIssue,
): Promise<RunningServer> {
  const { env, log, store, supervisor, metrics, health } = booty;
  // A server is composed with `server: true`, which gives its store a health (compose.ts).
  if (!health) throw new Error('startServer needs a booty composed as a server');
  let config: GatewayConfig;
  try {
    config = checked ?? gatewayConfig(env);
  } catch (err) {
    await booty.close();
    throw err;
  }
  metrics.watchStore(store);
  metrics.watchRunning(() => supervisor.running.length);

  let closing = false;
  // A view of every job's log: for this machine's eyes only, unless the operator says otherwise.
  const dashboard = dashboardServed(env);
  const app = await buildApp({
    config,
    supervisor,
    store,
    metrics,
    log,
    dashboard,
    auth: {
      tokens: apiTokensOf(store),
      // A server on loopback answers this machine only: there, by default, no token is needed.
      open: env.BOOTY_API_AUTH === 'auto' && isLoopbackHost(env.HOST),
    },
    rateLimit: env.BOOTY_API_RATE_LIMIT,
    readIssue: readIssue ?? booty.runtime?.github.getIssue,
    conversation: booty.runtime ? webhookConversation(booty.runtime.clients) : undefined,
    readiness: async () => [
      await databaseReady(health),
      // The rest of the config was checked at start and cannot change; the key file and the
      // workdir can.
      await probe('config', () => checkJobPrerequisites(env)),
      closing ? { name: 'accepting', ok: false, reason: 'shutting down' } : { name: 'accepting', ok: true },
    ],
  });

  let catchUp: DeliveryCatchUp | null = null;
  let closed: Promise<void> | null = null;
  const close = () => {
    closed ??= (async () => {
      // Deliveries get 503 with Retry-After from here on (the supervisor takes no more work), while
      // the jobs stop; the listener closes last, so no delivery meets a refused connection.
      closing = true;
      try {
        await catchUp?.stop();
        await booty.close();
      } finally {
        await app.close();
      }
    })();
    return closed;
  };

  let resumed: string[] = [];
  try {
    await app.listen({ host: env.HOST, port: env.PORT }).catch((err: unknown) => {
      throw listenError(err, env.HOST, env.PORT);
    });
    resumed = await supervisor.boot();
    health.start();
    // Once the route listens: what it asks GitHub to send again arrives there.
    catchUp = startDeliveryCatchUp({
      minutes: env.BOOTY_REDELIVER_MINUTES,
      clients: booty.runtime?.clients ?? null,
      store,
      metrics,
      log,
    });
  } catch (err) {
    await close();
    throw err;
  }
  const { port } = app.server.address() as AddressInfo;
  return {
    url: `http://${urlHost(env.HOST)}:${port}`,
    port,
    app,
    supervisor,
    store,
    metrics,
    dashboard,
    resumed,
    catchUp,
    close,
  };
}

/** Why the listener could not open, in the words of the settings that chose it (HOST, PORT). */
function listenError(err: unknown, host: string, port: number): BootyError {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  const reason =
    code === 'EADDRINUSE'
      ? 'the address is in use: another process listens there; stop it, or set PORT to a free port'
      : code === 'EADDRNOTAVAIL'
        ? `HOST (${host}) is not an address of this machine; set HOST to one of its addresses, or 0.0.0.0 for all`
        : code === 'ENOTFOUND' || code.startsWith('EAI_')
          ? `HOST (${host}) is not an address: it does not resolve; set HOST to an address of this machine, or 0.0.0.0 for all`
          : code === 'EACCES'
            ? 'no permission: a port below 1024 needs root or CAP_NET_BIND_SERVICE; set PORT to 1024 or above'
            : (err as Error).message;
  const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  return new BootyError('BOOTY_E_LISTEN', { address, reason }, { cause: err });
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
  /** How long close() may take before the process exits anyway (BOOTY_SHUTDOWN_GRACE_MS). */
  graceMs?: number;
  exit?: (code: number) => void;
}

/**
 * On SIGTERM or SIGINT: stop taking deliveries, stop the jobs (their logs resume them on the next
 * start), flush what can be flushed, close the store, exit 0. What is not flushed within the grace
 * is in the log and is caught up on the next start, so the exit is still 0: a process manager's
 * own deadline is never what ends booty. A second signal exits at once, with 1. Returns a function
 * that removes the handlers.
 */
export function installShutdownSignals(server: Pick<RunningServer, 'close'>, options: SignalOptions) {
  const { log, signals = ['SIGTERM', 'SIGINT'], graceMs = 10_000 } = options;
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
      log.warn({ graceMs }, 'shutdown grace is over: exiting; the log keeps what was not flushed');
      exit(0);
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
