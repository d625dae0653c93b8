import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ConversationGate, ForgeWebhooks } from '../forges/forge.js';
import type { Intake } from '../intake/deliveries.js';
import type { IntakeSettings } from '../intake/intake-config.js';
import { takeDelivery } from '../intake/take-delivery.js';
import { lazyChildLogger } from './lazy-child-logger.js';
import type { GatewayMetrics } from './metrics.js';

// POST /webhooks: the HTTP face of intake. The raw bytes go to the forge, which verifies and reads
// them; intake records and acts on the delivery in one commit, and its answer is the reply. The job
// runs after the reply.

export interface WebhookDeps {
  config: IntakeSettings;
  intake: Intake;
  metrics: GatewayMetrics;
  /** The forge whose deliveries this route takes. */
  webhooks: ForgeWebhooks;
  /** What to ask the forge before a job hears a conversation event. Absent, everyone may steer. */
  conversation?: ConversationGate;
}

export async function webhookRoutes(app: FastifyInstance, deps: WebhookDeps) {
  const { webhooks } = deps;
  // The raw bytes, whatever the content type: the signature covers them, so nothing parses first.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: webhooks.maxBytes }, (_req, body, done) =>
    done(null, body),
  );
  app.post(
    deps.config.webhookPath,
    {
      bodyLimit: webhooks.maxBytes,
      // The request's own logger carries the delivery id and event from the start, so every line
      // about it (errors included) has them, without a second child logger on the hot path; it is
      // made only once a line is written, which most deliveries never do.
      childLoggerFactory: (logger, bindings, options, raw) =>
        lazyChildLogger(logger, () =>
          logger.child(
            {
              ...bindings,
              deliveryId: clip(raw.headers[webhooks.idHeader]),
              event: clip(raw.headers[webhooks.eventHeader]),
            },
            options,
          ),
        ),
    },
    (request, reply) => receive(request, reply, deps),
  );
}

/** Headers are not yet verified when the logger is made: keep what they add to a line short. */
const clip = (value: string | string[] | undefined) =>
  typeof value === 'string' ? value.slice(0, 100) : undefined;

async function receive(request: FastifyRequest, reply: FastifyReply, deps: WebhookDeps) {
  const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  const read = await deps.webhooks.read({ headers: request.headers, body }, deps.config);
  const {
    result,
    status,
    body: answer,
  } = await takeDelivery(
    read,
    { intake: deps.intake, conversation: deps.conversation, countDelivery: deps.metrics.countDelivery },
    request.log,
  );
  const { action } = read.delivery;
  // Most deliveries an App receives start nothing; the deliveries table keeps them all, so they log
  // at debug and the ones that touch a job at info, from a child logger with the job id.
  if (result.outcome === 'ignored')
    request.log.debug({ action, outcome: result.outcome, reason: result.reason }, 'delivery');
  else {
    const jobId = 'jobId' in result ? result.jobId : 'jobIds' in result ? result.jobIds.join(',') : undefined;
    (jobId ? request.log.child({ jobId }) : request.log).info(
      { action, outcome: result.outcome },
      'delivery',
    );
  }
  return reply.code(status).send(answer);
}
