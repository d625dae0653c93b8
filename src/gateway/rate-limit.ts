import type { FastifyReply, FastifyRequest } from 'fastify';
import { BootyError } from '../errors.js';

// The jobs API's limit: at most `max` requests per key in a window that opens with the key's first
// request. @fastify/rate-limit did this, and loaded an IPv6 address library (ip-address, about
// 0.4 MB of an idle serve) for a subnet option booty never set: these few lines do what booty used.

/** Keys whose window ended are forgotten on the next request at least a window later. */
export function rateLimit(options: {
  max: number;
  windowMs: number;
  key: (request: FastifyRequest) => string;
  now?: () => number;
}) {
  const { max, windowMs, key } = options;
  const now = options.now ?? Date.now;
  const windows = new Map<string, { count: number; endsAt: number }>();
  let sweptAt = now();
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const at = now();
    if (at - sweptAt >= windowMs) {
      for (const [k, w] of windows) if (w.endsAt <= at) windows.delete(k);
      sweptAt = at;
    }
    const k = key(request);
    let w = windows.get(k);
    if (!w || w.endsAt <= at) {
      w = { count: 0, endsAt: at + windowMs };
      windows.set(k, w);
    }
    w.count++;
    const seconds = Math.max(1, Math.ceil((w.endsAt - at) / 1000));
    reply.header('x-ratelimit-limit', max);
    reply.header('x-ratelimit-remaining', Math.max(0, max - w.count));
    reply.header('x-ratelimit-reset', seconds);
    if (w.count <= max) return;
    reply.header('retry-after', seconds);
    throw new BootyError('BOOTY_E_API_RATE_LIMITED', {
      max,
      after:
        seconds >= 60
          ? `${Math.round(seconds / 60)} minute${seconds >= 90 ? 's' : ''}`
          : `${seconds} second${seconds === 1 ? '' : 's'}`,
    });
  };
}
