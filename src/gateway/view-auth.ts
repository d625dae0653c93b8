import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ApiAuth, checkToken, TOKEN_COOKIE } from './api-auth.js';
import { tokenPage } from './view-pages.js';

// The job view in a browser: a page asked for without a valid token answers 401 with a form; the
// form's token, once it checks out, is kept in an HttpOnly cookie that the API reads for GETs only.

const YEAR_S = 365 * 24 * 3600;

/** preValidation of every view route: a caller without a token gets the form. */
export async function viewGuard(request: FastifyRequest, reply: FastifyReply) {
  const caller = request.apiCaller;
  if (caller && caller.kind !== 'none') return;
  const accepts = String(request.headers.accept ?? '');
  // The event streams are read by the page's script, not a person: a plain 401.
  if (!accepts.includes('text/html')) {
    return reply.code(401).header('www-authenticate', 'Bearer realm="booty"').send();
  }
  return reply
    .code(401)
    .type('text/html; charset=utf-8')
    .send(tokenPage(caller?.reason ?? 'the request has no token', request.url));
}

export async function viewTokenRoute(app: FastifyInstance, deps: { auth: ApiAuth }) {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4_096 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  app.post<{ Body: { token?: string; next?: string } }>(
    '/view/token',
    { schema: { hide: true } },
    async (request, reply) => {
      const shown = request.body?.token?.trim() ?? '';
      // Back to where the form was, on this site only.
      const next = /^\/(?!\/)/.test(request.body?.next ?? '') ? request.body!.next! : '/';
      const caller = shown ? await checkToken(deps.auth.tokens, shown) : null;
      if (caller?.kind !== 'token') {
        const reason = caller?.kind === 'none' ? caller.reason : 'no token was given';
        return reply.code(401).type('text/html; charset=utf-8').send(tokenPage(reason, next));
      }
      const secure = request.protocol === 'https' ? '; Secure' : '';
      return reply
        .header(
          'set-cookie',
          `${TOKEN_COOKIE}=${encodeURIComponent(shown)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${YEAR_S}${secure}`,
        )
        .redirect(next, 303);
    },
  );
}
