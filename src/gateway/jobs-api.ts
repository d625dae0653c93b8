import type { FastifyInstance } from 'fastify';
import { BootyError } from '../errors.js';
import type { Intake } from '../intake/deliveries.js';
import type { IntakeSettings } from '../intake/intake-config.js';
import type { EventStore } from '../store/event-store.js';
import { type ApiAuth, identify, rateKey } from './api-auth.js';
import { dashboardRoutes } from './dashboard-routes.js';
import type { ReadIssue } from './jobs-write-routes.js';
import { documentedRoutes, openApiDocument } from './openapi-document.js';
import { rateLimit } from './rate-limit.js';
import { viewGuard, viewTokenRoute } from './view-auth.js';
import { viewOffPage } from './view-pages.js';

// What people and tools read of the jobs: the jobs API (documented in OpenAPI) and the job view.
// Both ask for a token (api-auth.ts) and share one rate limit per token, or per address for a
// request without a valid one. The webhook, health and metrics routes are outside: GitHub and the
// orchestrator have their own ways in.

export interface JobsApiDeps {
  store: EventStore;
  intake: Intake;
  config: IntakeSettings;
  auth: ApiAuth;
  /** Requests a minute per token or address (BOOTY_API_RATE_LIMIT). */
  rateLimit: number;
  /** Serve the job view (BOOTY_DASHBOARD, or loopback). */
  dashboard: boolean;
  readIssue?: ReadIssue;
}

export async function jobsApi(app: FastifyInstance, deps: JobsApiDeps) {
  app.addHook('onRequest', identify(deps.auth));
  app.addHook('onRequest', rateLimit({ max: deps.rateLimit, windowMs: 60_000, key: rateKey }));
  await app.register(documentedApi, deps);
  if (deps.dashboard) await app.register(viewRoutes, deps);
  else await app.register(viewOffRoutes);
}

/** The documented routes, and their OpenAPI document, built the first time it is asked for. */
async function documentedApi(app: FastifyInstance, deps: JobsApiDeps) {
  await app.register(documentedRoutes, deps);
  let document: Promise<Record<string, unknown>> | undefined;
  app.get('/openapi.json', { schema: { hide: true } }, () => {
    document ??= openApiDocument(deps).then(
      (built) => built.document,
      (err: unknown) => {
        document = undefined;
        throw err;
      },
    );
    return document;
  });
}

async function viewRoutes(app: FastifyInstance, deps: JobsApiDeps) {
  await app.register(viewTokenRoute, deps);
  await app.register(async (view) => {
    view.addHook('preValidation', viewGuard);
    await view.register(dashboardRoutes, deps);
  });
}

async function viewOffRoutes(app: FastifyInstance) {
  const off = new BootyError('BOOTY_E_JOB_VIEW_OFF', {});
  for (const url of ['/', '/jobs/:id/view', '/stream', '/jobs/:id/stream']) {
    app.get(url, async (request, reply) => {
      if (!String(request.headers.accept ?? '').includes('text/html')) throw off;
      return reply.code(off.status).type('text/html; charset=utf-8').send(viewOffPage(off.message));
    });
  }
}
