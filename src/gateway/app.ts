import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { ConversationGate, ForgeWebhooks } from '../forges/forge.js';
import type { Intake } from '../intake/deliveries.js';
import type { IntakeSettings } from '../intake/intake-config.js';
import type { Logger } from '../log.js';
import type { EventStore } from '../store/event-store.js';
import type { ApiAuth } from './api-auth.js';
import { installErrorReplies } from './error-reply.js';
import { jobsApi } from './jobs-api.js';
import type { ReadIssue } from './jobs-write-routes.js';
import { lazySchemaController } from './lazy-schemas.js';
import type { GatewayMetrics } from './metrics.js';
import { opsRoutes } from './ops-routes.js';
import type { ReadinessCheck } from './readiness.js';
import { webhookRoutes } from './webhook-route.js';

// The HTTP surface, assembled from its parts. It does not listen: serve.ts does, and tests may
// call `inject` on it.

export interface AppDeps {
  config: IntakeSettings;
  intake: Intake;
  store: EventStore;
  /** The forge whose deliveries POST /webhooks takes. */
  webhooks: ForgeWebhooks;
  /** Each served forge's own route (`/webhooks/github`, `/webhooks/gitlab`), when booty serves two. */
  moreWebhooks?: { config: IntakeSettings; webhooks: ForgeWebhooks }[];
  metrics: GatewayMetrics;
  log: Logger;
  readiness: () => Promise<ReadinessCheck[]>;
  /** Serve the job view and list (dashboard-routes.ts). */
  dashboard?: boolean;
  /** Who may use the jobs API and the view: its tokens, and whether loopback needs none. */
  auth: ApiAuth;
  /** Requests a minute per token or address (BOOTY_API_RATE_LIMIT). */
  rateLimit: number;
  /** Reads an issue from the forge, for `POST /jobs`; absent without a forge client. */
  readIssue?: ReadIssue;
  /** The forge's answers a conversation event needs before a job hears it (intake/take-delivery.ts). */
  conversation?: ConversationGate;
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.log as FastifyBaseLogger,
    // Each delivery logs one line of its own, with its delivery id and job id; per-request lines
    // would double the log and slow the hot path.
    logController: new LogController({ disableRequestLogging: true }),
    // Close idle keep-alive connections on close, so shutdown does not wait on GitHub's sockets.
    forceCloseConnections: 'idle',
    // A client that sends its headers or body slowly, or nothing, is cut off within 10 s: 5 s, and
    // node looks every second, which leaves 4 s for a loaded machine to get round to a thousand of
    // them at once. A kept-alive connection left idle goes after 5 s too (fastify's default is
    // 72 s). No socket idle timeout (connectionTimeout): the job view's live streams stay quiet
    // for minutes. A thousand slow connections must not hold a thousand sockets.
    requestTimeout: 5_000,
    keepAliveTimeout: 5_000,
    http: { headersTimeout: 5_000, requestTimeout: 5_000, connectionsCheckingInterval: 1_000 },
    // The jobs API's schemas compile on their routes' first requests, not at start (lazy-schemas.ts).
    schemaController: lazySchemaController(),
  });
  const more = deps.moreWebhooks ?? [];
  installErrorReplies(
    app,
    {
      paths: [deps.config.webhookPath, ...more.map((m) => m.config.webhookPath)],
      bodyLimit: Math.max(deps.webhooks.maxBytes, ...more.map((m) => m.webhooks.maxBytes)),
    },
    (code) => deps.metrics.countDelivery(code),
  );
  await app.register(webhookRoutes, deps);
  for (const m of more) await app.register(webhookRoutes, { ...deps, ...m });
  await app.register(opsRoutes, deps);
  // Jobs' logs hold the issues, the code and the test output of private repositories: the API and
  // the view ask for a token, and the view is served where the operator says (or on loopback).
  await app.register(jobsApi, { ...deps, dashboard: deps.dashboard === true });
  return app;
}
