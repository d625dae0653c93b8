import type { FastifyInstance } from 'fastify';
import { BootyError } from '../errors.js';
import { errorReply } from './error-reply.js';
import type { GatewayMetrics } from './metrics.js';
import type { ReadinessCheck } from './readiness.js';

// Liveness, readiness and metrics, for the orchestrator and for Prometheus.

export interface OpsDeps {
  metrics: GatewayMetrics;
  readiness: () => Promise<ReadinessCheck[]>;
}

export async function opsRoutes(app: FastifyInstance, deps: OpsDeps) {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (_request, reply) => {
    const checks = await deps.readiness();
    const failed = checks.filter((c) => !c.ok);
    if (failed.length === 0) return { status: 'ready', checks };
    const err = new BootyError('BOOTY_E_NOT_READY', {
      reason: failed.map((c) => `${c.name} ${c.reason ?? 'failed'}`).join('; '),
    });
    const { status, body } = errorReply(err);
    return reply.code(status).send({ ...body, checks });
  });

  app.get('/metrics', async (_request, reply) => {
    const text = await deps.metrics.registry.metrics();
    return reply.type(deps.metrics.registry.contentType).send(text);
  });
}
