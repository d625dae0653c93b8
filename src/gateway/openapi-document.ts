import Fastify, { type FastifyInstance } from 'fastify';
import type { Intake } from '../intake/deliveries.js';
import type { IntakeSettings } from '../intake/intake-config.js';
import type { EventStore } from '../store/event-store.js';
import { bootyVersion } from '../version.js';
import { jobsRoutes } from './jobs-routes.js';
import { jobsWriteRoutes, type ReadIssue } from './jobs-write-routes.js';
import { lazySchemaController } from './lazy-schemas.js';

// The jobs API's OpenAPI document: the documented routes registered on a fastify of its own, and
// what @fastify/swagger builds from their schemas. `npm run docs:openapi` writes it to
// docs/openapi.json; a served booty builds the same when GET /openapi.json is first asked
// (jobs-api.ts), so swagger and its YAML do not load into a serve that is never asked.

export interface DocumentedRoute {
  method: string;
  url: string;
}

export interface DocumentedDeps {
  store: EventStore;
  intake: Intake;
  config: IntakeSettings;
  readIssue?: ReadIssue;
}

/** The routes the OpenAPI document describes. */
export async function documentedRoutes(app: FastifyInstance, deps: DocumentedDeps) {
  await app.register(jobsRoutes, deps);
  await app.register(jobsWriteRoutes, deps);
}

export async function openApiDocument(
  deps: DocumentedDeps,
): Promise<{ document: Record<string, unknown>; routes: DocumentedRoute[] }> {
  const { default: swagger } = await import('@fastify/swagger');
  // No request is made of it: its schemas are read, never compiled.
  const app = Fastify({ schemaController: lazySchemaController() });
  const routes: DocumentedRoute[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routes.push({ method, url: route.url });
    }
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'booty jobs API',
        version: bootyVersion(),
        description:
          'The jobs booty runs: read them with a read token, start, cancel and retry them with a write token (`booty token create --scope read|write`).',
      },
      components: { securitySchemes: { token: { type: 'http', scheme: 'bearer' } } },
      security: [{ token: [] }],
    },
  });
  await app.register(documentedRoutes, deps);
  await app.ready();
  const document = app.swagger() as unknown as Record<string, unknown>;
  await app.close();
  return { document, routes };
}
