import { createPublicKey, randomBytes, verify } from 'node:crypto';
import type { SimApp, SimState, SimToken } from './github-sim-state.js';

// Who is calling: a token the simulator issued (a personal token or a minted installation token),
// or a GitHub App proving itself with an RS256 JWT signed by its private key, checked against the
// public key it was registered with, as GitHub does.

export type Caller =
  | { kind: 'token'; token: SimToken }
  | { kind: 'app'; app: SimApp }
  /** No credentials, where GitHub allows that (the manifest conversion). */
  | { kind: 'anonymous' };

export interface AuthFailure {
  status: 401;
  body: { message: string; documentation_url: string; status: '401' };
}

const failure = (message: string): AuthFailure => ({
  status: 401,
  body: { message, documentation_url: 'https://docs.github.com/rest', status: '401' },
});

const isJwt = (s: string) => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(s);

export function authenticate(state: SimState, header: string | undefined, now: Date): Caller | AuthFailure {
  if (!header) return failure('Requires authentication');
  const [scheme, ...rest] = header.trim().split(/\s+/);
  const credential = rest.join(' ');
  if (!scheme || !credential) return failure('Bad credentials');
  const lower = scheme.toLowerCase();
  if (lower === 'basic') {
    const decoded = Buffer.from(credential, 'base64').toString('utf8');
    return tokenCaller(state, decoded.slice(decoded.indexOf(':') + 1), now);
  }
  if (lower !== 'token' && lower !== 'bearer') return failure('Bad credentials');
  if (isJwt(credential)) return appCaller(state, credential, now);
  return tokenCaller(state, credential, now);
}

function tokenCaller(state: SimState, value: string, now: Date): Caller | AuthFailure {
  const token = state.tokens.find((t) => t.token === value);
  if (!token) return failure('Bad credentials');
  if (token.expiresAt && Date.parse(token.expiresAt) <= now.getTime()) return failure('Bad credentials');
  return { kind: 'token', token };
}

function appCaller(state: SimState, jwt: string, now: Date): Caller | AuthFailure {
  const [head, payload, signature] = jwt.split('.') as [string, string, string];
  let claims: { iss?: unknown; iat?: unknown; exp?: unknown };
  let alg: unknown;
  try {
    alg = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')).alg;
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return failure('A JSON web token could not be decoded');
  }
  if (alg !== 'RS256') return failure('A JSON web token could not be decoded');
  const app = state.apps.find((a) => String(a.id) === String(claims.iss));
  if (!app) return failure(`Integration not found for the 'iss' claim ${JSON.stringify(claims.iss)}`);
  const signed = verify(
    'RSA-SHA256',
    Buffer.from(`${head}.${payload}`),
    createPublicKey(app.publicKey),
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) return failure('A JSON web token could not be decoded');
  const seconds = Math.floor(now.getTime() / 1000);
  if (typeof claims.exp !== 'number' || claims.exp <= seconds) {
    return failure(
      "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires",
    );
  }
  if (typeof claims.iat !== 'number' || claims.iat > seconds + 60 || claims.exp - claims.iat > 600) {
    return failure(
      "'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued",
    );
  }
  return { kind: 'app', app };
}

/** The login a caller acts as: an installation token acts as the App's bot user. */
export function callerLogin(_state: SimState, caller: Caller): string | null {
  if (caller.kind === 'app') return `${caller.app.slug}[bot]`;
  if (caller.kind === 'anonymous') return null;
  return caller.token.login;
}

/** Whether a caller may act on a repository: an installation only on its account's repositories. */
export function mayAccess(state: SimState, caller: Caller, owner: string): boolean {
  if (caller.kind !== 'token') return false;
  if (caller.token.kind === 'pat') return true;
  const installation = state.apps
    .flatMap((a) => a.installations)
    .find((i) => i.id === caller.token.installationId);
  return installation?.account.toLowerCase() === owner.toLowerCase();
}

export const newToken = (prefix: 'ghp' | 'ghs') =>
  `${prefix}_${randomBytes(27).toString('base64url').replace(/[-_]/g, 'x').slice(0, 36)}`;
