import type { FastifyError, FastifyInstance } from 'fastify';
import { BootyError, isBootyError } from '../errors.js';

// The one place an error becomes an HTTP reply: every error is first a BootyError, whose catalogue
// entry carries the status, and the body is always { error: { code, message } }.

export interface ErrorReply {
  status: number;
  body: { error: { code: string; message: string } };
}

/** `bodyLimit`: the largest delivery the webhook route takes (its forge's). */
export function toBootyError(err: unknown, requestId: string, bodyLimit: number): BootyError {
  if (isBootyError(err)) return err;
  const fe = err as Partial<FastifyError>;
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return new BootyError('BOOTY_E_WEBHOOK_TOO_LARGE', { limit: bodyLimit }, { cause: err });
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500)
    return new BootyError('BOOTY_E_HTTP_BAD_REQUEST', { reason: fe.message ?? 'malformed' }, { cause: err });
  return new BootyError('BOOTY_E_INTERNAL', { requestId }, { cause: err });
}

export function errorReply(err: BootyError): ErrorReply {
  return { status: err.status, body: { error: { code: err.code, message: err.message } } };
}

export function installErrorReplies(
  app: FastifyInstance,
  webhook: { paths: string[]; bodyLimit: number },
  onError: (outcome: string) => void,
) {
  app.setErrorHandler((err, request, reply) => {
    const booty = toBootyError(err, request.id, webhook.bodyLimit);
    // Log the code and message only: never the body, the headers or the signature.
    // A refusal booty expects and recovers from (shutting down, the database paused) is a warning.
    if (booty.status >= 500 && !booty.retryable) request.log.error({ err }, booty.message);
    else if (booty.status >= 500) request.log.warn({ code: booty.code }, booty.message);
    else request.log.info({ code: booty.code }, booty.message);
    if (webhook.paths.includes(request.routeOptions.url ?? '')) onError(booty.code);
    const { status, body } = errorReply(booty);
    // A 503 is a "not now": say when to come back (a restart takes seconds).
    if (status === 503) reply.header('retry-after', '10');
    return reply.code(status).send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    const { status, body } = errorReply(
      new BootyError('BOOTY_E_HTTP_NOT_FOUND', { method: request.method, url: request.url }),
    );
    return reply.code(status).send(body);
  });
}
