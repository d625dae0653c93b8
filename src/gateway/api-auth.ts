import type { FastifyReply, FastifyRequest } from 'fastify';
import { BootyError } from '../errors.js';
import { apiTokenHash } from '../store/api-token-secret.js';
import type { ApiScope, ApiToken, ApiTokens } from '../store/api-tokens.js';

// Who calls the jobs API and the job view, and what they may do. A request shows a token as
// `Authorization: Bearer <token>`; a browser on the job view shows it as the `booty_token` cookie,
// which counts for reading only, so no page elsewhere can make a browser write. A server that
// listens on loopback only (and BOOTY_API_AUTH=auto) answers a request without a token; a token it
// is shown is checked all the same, so a revoked or read-only token fails there too.
//
// Two hooks, apart so the rate limit sits between them: `identify` (onRequest) finds the caller,
// the limit counts the request against the caller's token or address, and `requireScope`
// (preHandler) refuses what the caller may not do.

export type Caller =
  | { kind: 'token'; token: ApiToken }
  | { kind: 'loopback' }
  | { kind: 'none'; reason: string };

declare module 'fastify' {
  interface FastifyRequest {
    apiCaller?: Caller;
  }
}

export interface ApiAuth {
  tokens: ApiTokens;
  /** No token is needed: the server listens on loopback only, and BOOTY_API_AUTH is auto. */
  open: boolean;
}

export const TOKEN_COOKIE = 'booty_token';

export function identify(auth: ApiAuth) {
  return async (request: FastifyRequest) => {
    request.apiCaller = await callerOf(request, auth);
  };
}

async function callerOf(request: FastifyRequest, auth: ApiAuth): Promise<Caller> {
  const header = request.headers.authorization;
  let shown: string | undefined;
  if (header !== undefined) {
    const bearer = /^Bearer +(\S+) *$/i.exec(header);
    if (!bearer) return { kind: 'none', reason: 'the Authorization header is not `Bearer <token>`' };
    shown = bearer[1];
  } else if (request.method === 'GET' || request.method === 'HEAD') {
    shown = cookieValue(request.headers.cookie, TOKEN_COOKIE);
  }
  if (shown === undefined)
    return auth.open ? { kind: 'loopback' } : { kind: 'none', reason: 'the request has no token' };
  return checkToken(auth.tokens, shown);
}

export async function checkToken(tokens: ApiTokens, shown: string): Promise<Caller> {
  const token = await tokens.byHash(apiTokenHash(shown));
  if (!token) return { kind: 'none', reason: 'the token is not one this booty made' };
  if (token.revokedAt !== null)
    return { kind: 'none', reason: `token ${token.id} (${token.name}) was revoked` };
  return { kind: 'token', token };
}

/** The rate limit's key: the caller's token, else its address (every failed attempt counts there). */
export const rateKey = (request: FastifyRequest) =>
  request.apiCaller?.kind === 'token' ? `token:${request.apiCaller.token.id}` : `ip:${request.ip}`;

/** Refuses a caller without a valid token (401), or with a read token for a write (403). */
export function requireScope(scope: ApiScope, action: string) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const caller = request.apiCaller ?? { kind: 'none', reason: 'the request has no token' };
    if (caller.kind === 'none') {
      reply.header('www-authenticate', 'Bearer realm="booty"');
      throw new BootyError('BOOTY_E_API_UNAUTHORIZED', { reason: caller.reason });
    }
    if (scope === 'write' && caller.kind === 'token' && caller.token.scope !== 'write') {
      throw new BootyError('BOOTY_E_API_FORBIDDEN', {
        id: caller.token.id,
        name: caller.token.name,
        action,
      });
    }
  };
}

/** Who did it, in the log's words: the token's name, or the loopback caller. */
export const callerName = (request: FastifyRequest) =>
  request.apiCaller?.kind === 'token' ? `api:${request.apiCaller.token.name}` : 'api:loopback';

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name && value.length) return decodeURIComponent(value.join('='));
  }
  return undefined;
}
