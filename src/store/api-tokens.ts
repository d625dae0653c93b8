// Tokens for the jobs API (`booty token create`). The store keeps a token's hash, never the token:
// a read of the database gives no one a way in. A token is revoked, not deleted, so `booty token
// list` still names it and a revoked token fails as revoked rather than as unknown.

export type ApiScope = 'read' | 'write';

export interface ApiToken {
  /** A short public id, shown by `booty token list` and taken by `booty token revoke`. */
  id: string;
  /** What the operator called it: who or what holds it. */
  name: string;
  scope: ApiScope;
  /** Epoch milliseconds. */
  createdAt: number;
  /** Epoch milliseconds; null while it works. */
  revokedAt: number | null;
}

export interface NewApiToken {
  id: string;
  name: string;
  scope: ApiScope;
  /** The token's SHA-256, in hex (api-token-secret.ts). */
  hash: string;
  createdAt: number;
}

export interface ApiTokens {
  create(token: NewApiToken): Promise<ApiToken>;
  /** Every token, revoked ones included, oldest first. */
  list(): Promise<ApiToken[]>;
  /** The token with this hash, revoked or not; null when there is none. */
  byHash(hash: string): Promise<ApiToken | null>;
  /** Revokes a token; false when there is no such token, or it was revoked already. */
  revoke(id: string, at: number): Promise<boolean>;
}
