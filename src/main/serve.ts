import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Supervisor } from '../engine/supervisor.js';
import { servedForge, servedForges, storeLocation } from '../env.js';
import { BootyError } from '../errors.js';
import { buildApp } from '../gateway/app.js';
import type { ReadIssue } from '../gateway/jobs-write-routes.js';
import type { GatewayMetrics } from '../gateway/metrics.js';
import { databaseReady, probe } from '../gateway/readiness.js';
import type { Intake } from '../intake/deliveries.js';
import { type DeliveryCatchUp, startDeliveryCatchUp } from '../intake/delivery-catch-up.js';
import { type IntakeSettings, intakeConfig } from '../intake/intake-config.js';
import { isLoopbackHost } from '../loopback.js';
import type { EventStore } from '../store/event-store.js';
import { apiTokensOf } from '../store/open-api-tokens.js';
import { dashboardServed } from '../views/job-link.js';
import { type Booty, type BootyConfig, composeBooty } from './compose.js';
import { lockStore } from './open-store.js';
import { checkJobPrerequisites } from './prerequisites.js';

// `booty serve` (and `demo`): a composed booty behind the HTTP gateway. The listener opens first,
// then the supervisor boots, so resumed jobs and new deliveries share one queue. The server's own
// closes (refusing work, the catch-up, the listener) and the database lock join the booty's
// lifecycle, which closes everything in its one order (lifecycle.ts).

export interface RunningServer {
  url: string;
  port: number;
  app: FastifyInstance;
  supervisor: Supervisor;
  intake: Intake;
  store: EventStore;
  metrics: GatewayMetrics;
  /** Whether the job view and list are served (`/`, `/jobs/:id/view`). */
  dashboard: boolean;
  /** The jobs that resumed from their logs at start. */
  resumed: string[];
  /** The catch-up of webhook deliveries missed while booty was down; null where the forge keeps no log. */
  catchUp: DeliveryCatchUp | null;
  /** Closes the booty's lifecycle: no more work, the jobs, the store, the listener. */
  close(): Promise<void>;
}

/** What the env must hold for a server, checked before anything opens. */
export function serverSettings(env: Booty['env']): IntakeSettings {
  const settings = intakeConfig(env);
  checkJobPrerequisites(env);
  return settings;
}

/**
 * `checked`: the settings when the caller has already checked the env (startBooty has).
 * `readIssue`: how `POST /jobs` reads an issue, where booty has no forge of its own (a test's
 * effects); the forge's otherwise.
 */
export async function startServer(
  booty: Booty,
  checked?: IntakeSettings,
  readIssue?: ReadIssue,
): Promise<RunningServer> {
  const { env, log, store, supervisor, intake, metrics, health, forge, lifecycle } = booty;
  // A server is composed with `server: true`, which gives its store a health (compose.ts).
  if (!health) throw new Error('startServer needs a booty composed as a server');
  let settings: IntakeSettings;
  try {
    settings = checked ?? serverSettings(env);
  } catch (err) {
    await booty.close();
    throw err;
  }
  if (forge) {
    // Mentions are read by the App's own name once GitHub says it; until then BOOTY_HANDLE's or booty.
    settings = { ...settings, handle: () => forge.handle() };
    forge.identify().catch((err: unknown) => log.warn({ err }, 'could not read booty’s name on the forge'));
  }
  metrics.watchStore(store);
  metrics.watchRunning(() => supervisor.running.length, booty.worker);

  // A view of every job's log: for this machine's eyes only, unless the operator says otherwise.
  const dashboard = dashboardServed(env);
  // Without a forge (a test's or a benchmark's own effects), the served forge's webhooks all the same.
  const webhooks = forge?.webhooks ?? (await webhooksOf(servedForge(env)));
  // Both forges served: each has a route of its own too, /webhooks staying the first one's.
  const served = servedForges(env);
  const moreWebhooks =
    served.length > 1
      ? await Promise.all(
          served.map(async (name) => ({
            config: { ...intakeConfig(env, name), webhookPath: `/webhooks/${name}` },
            webhooks: await webhooksOf(name),
          })),
        )
      : [];
  const app = await buildApp({
    config: settings,
    intake,
    store,
    webhooks,
    moreWebhooks,
    metrics,
    log,
    dashboard,
    auth: {
      tokens: apiTokensOf(store),
      // A server on loopback answers this machine only: there, by default, no token is needed.
      open: env.BOOTY_API_AUTH === 'auto' && isLoopbackHost(env.HOST),
    },
    rateLimit: env.BOOTY_API_RATE_LIMIT,
    readIssue: readIssue ?? forge?.effects.getIssue,
    conversation: forge?.conversation,
    readiness: async () => [
      await databaseReady(health),
      // The rest of the config was checked at start and cannot change; the key file and the
      // workdir can.
      await probe('config', () => checkJobPrerequisites(env)),
      // The forge's access (GitLab: the token's scopes), asked of the forge and kept a minute.
      ...(forge?.checkAccess ? [await probe('forge', forge.checkAccess)] : []),
      lifecycle.closed
        ? { name: 'accepting', ok: false, reason: 'shutting down' }
        : { name: 'accepting', ok: true },
    ],
  });
  let catchUp: DeliveryCatchUp | null = null;
  // Deliveries get 503 with Retry-After from the first phase on (the supervisor takes no more
  // work), while the jobs stop; the listener closes after the store, so no delivery meets a
  // refused connection meanwhile.
  lifecycle.on('refuse', 'missed-delivery catch-up', () => catchUp?.stop());
  lifecycle.on('listener', 'HTTP listener', () => app.close());

  let resumed: string[] = [];
  try {
    await app.listen({ host: env.HOST, port: env.PORT }).catch((err: unknown) => {
      throw listenError(err, env.HOST, env.PORT);
    });
    resumed = await supervisor.boot();
    // Said at start in one line; /readyz keeps failing on it until it is fixed.
    await forge
      ?.checkAccess?.()
      .catch((err: unknown) => log.error({ code: (err as BootyError).code }, (err as Error).message));
    health.start();
    // Once the route listens: what it asks the forge to send again arrives there.
    catchUp = startDeliveryCatchUp({
      minutes: env.BOOTY_REDELIVER_MINUTES,
      history: forge ? forge.history : null,
      store,
      metrics,
      log,
    });
  } catch (err) {
    await booty.close();
    throw err;
  }
  const { port } = app.server.address() as AddressInfo;
  return {
    url: `http://${urlHost(env.HOST)}:${port}`,
    port,
    app,
    supervisor,
    intake,
    store,
    metrics,
    dashboard,
    resumed,
    catchUp,
    close: () => booty.close(),
  };
}

/** `booty serve` and `booty demo`: the database lock, a booty composed as a server, its gateway. */
export async function startBooty(
  config: BootyConfig,
  /** The settings, when the caller checked the env already (serve, before its sandbox probe). */
  checked?: IntakeSettings,
): Promise<Booty & { server: RunningServer }> {
  // Checked before anything opens, so a bad setting leaves no port or file behind: once, as the
  // check reads the App's key and writes to the workdir.
  const settings = checked ?? serverSettings(config.env);
  // One writing booty per database: a second waits for the first to exit (a rolling deploy).
  const lock = config.store
    ? null
    : await lockStore(storeLocation(config.env), { waitMs: config.env.BOOTY_LOCK_WAIT_MS });
  let booty: Booty;
  try {
    booty = await composeBooty({ ...config, server: true });
  } catch (err) {
    lock?.release();
    throw err;
  }
  if (lock) booty.lifecycle.on('lock', 'database lock', () => lock.release());
  const server = await startServer(booty, settings);
  return { ...booty, server };
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

/** A forge's webhook reader, loaded when needed. */
const webhooksOf = async (name: 'github' | 'gitlab') =>
  name === 'gitlab'
    ? (await import('../forges/gitlab/gitlab-webhooks.js')).gitlabWebhooks
    : (await import('../forges/github/github-webhooks.js')).githubWebhooks;
