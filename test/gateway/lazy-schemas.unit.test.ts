import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazySchemaController } from '../../src/gateway/lazy-schemas.js';

// The gateway's schemas compile on first use; what a request meets must be what fastify's own
// compilers answer: the same refusals, word for word, and the same replies.

const schema = {
  params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } } },
  body: {
    type: 'object',
    required: ['repo'],
    properties: { repo: { type: 'string', pattern: '^[^/]+/[^/]+$' }, issue: { type: 'integer' } },
  },
  response: {
    200: {
      type: 'object',
      properties: { repo: { type: 'string' }, at: { type: 'string', format: 'date-time' } },
    },
  },
};

async function appWith(lazy: boolean) {
  const app = Fastify(lazy ? { schemaController: lazySchemaController() } : {});
  app.post('/jobs/:id', { schema }, async (request) => ({
    ...(request.body as object),
    at: '2026-01-01T00:00:00.000Z',
    secret: 'a field the schema does not name',
  }));
  await app.ready();
  return { app };
}

const requests = [
  { url: '/jobs/3', payload: { repo: 'acme/api', issue: 4 } },
  { url: '/jobs/3', payload: { repo: 'not a repo' } },
  { url: '/jobs/3', payload: { issue: 'four' } },
  { url: '/jobs/0', payload: { repo: 'acme/api' } },
  { url: '/jobs/x', payload: { repo: 'acme/api' } },
  { url: '/jobs/3', payload: { repo: 'acme/api', issue: 'four' } },
];

describe('schemas compiled on first use', () => {
  it('answer every request as fastify’s own compilers do', async () => {
    const eager = await appWith(false);
    const lazy = await appWith(true);
    try {
      for (const r of requests) {
        const [want, got] = await Promise.all(
          [eager, lazy].map((a) => a.app.inject({ method: 'POST', ...r })),
        );
        expect([r, got!.statusCode, got!.json()]).toEqual([r, want!.statusCode, want!.json()]);
      }
      // The reply is serialized by its schema: a field it does not name is not sent.
      const ok = await lazy.app.inject({ method: 'POST', ...requests[0]! });
      expect(ok.json()).toEqual({ repo: 'acme/api', at: '2026-01-01T00:00:00.000Z' });
    } finally {
      await Promise.all([eager.app.close(), lazy.app.close()]);
    }
  });

  it('compiles a route’s schema on its first request, not at start', async () => {
    // A pattern Ajv cannot compile: fastify's own compilers refuse it at start; here the start
    // goes on, and the route's first request meets it.
    const broken = { body: { type: 'object', properties: { repo: { type: 'string', pattern: '(' } } } };
    const eager = Fastify();
    eager.post('/jobs', { schema: broken }, async () => ({}));
    await expect(eager.ready()).rejects.toThrow(/Failed building the validation schema/);
    const lazy = Fastify({ schemaController: lazySchemaController() });
    lazy.post('/jobs', { schema: broken }, async () => ({}));
    await lazy.ready();
    expect((await lazy.inject({ method: 'POST', url: '/jobs', payload: {} })).statusCode).toBe(500);
    await lazy.close();
  });
});
