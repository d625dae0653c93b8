import Fastify from 'fastify';
import type { Intake } from '../intake/deliveries.js';
import type { IntakeSettings } from '../intake/intake-config.js';
import type { EventStore } from '../store/event-store.js';
import { apiTokensOf } from '../store/open-api-tokens.js';
import { documentedRoutes } from './jobs-api.js';

// The jobs API's OpenAPI document without a listening server: the documented routes registered on
// a bare fastify, and what @fastify/swagger builds from their schemas. `npm run docs:openapi`
// writes it to docs/openapi.json; a served booty answers the same at GET /openapi.json.

export interface DocumentedRoute {
  method: string;
  url: string;
}

export async function openApiDocument(deps: {
  store: EventStore;
  intake: Intake;
  config: IntakeSettings;
}): Promise<{ document: Record<string, unknown>; routes: DocumentedRoute[] }> {
  const app = Fastify();
  const routes: DocumentedRoute[] = [];
  app.addHook('onRoute', (route) => {
    const hidden = (route.schema as { hide?: boolean } | undefined)?.hide === true;
    for (const method of [route.method].flat()) {
      if (!hidden && method !== 'HEAD') routes.push({ method, url: route.url });
    }
  });
  await app.register(documentedRoutes, {
    ...deps,
    auth: { tokens: apiTokensOf(deps.store), open: false },
    rateLimit: 1,
    dashboard: false,
  });
  const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as Record<
    string,
    unknown
  >;
  await app.close();
  return { document, routes };
}
