import type { Pool } from 'pg';
import type { ApiScope, ApiToken, ApiTokens, NewApiToken } from '../api-tokens.js';

// The jobs API's tokens in the PostgreSQL store's database, table api_tokens
// (migrations/004-api-tokens.sql): every worker on the database accepts the same tokens.

interface Row {
  id: string;
  name: string;
  scope: ApiScope;
  created_at: number;
  revoked_at: number | null;
}

const toToken = (r: Row): ApiToken => ({
  id: r.id,
  name: r.name,
  scope: r.scope,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

export class PostgresApiTokens implements ApiTokens {
  /** `pool` waits for the store's connection and migrations, as every store call does. */
  constructor(private readonly pool: () => Promise<Pool>) {}

  async create(token: NewApiToken): Promise<ApiToken> {
    await (await this.pool()).query(
      'INSERT INTO api_tokens (id, name, scope, hash, created_at) VALUES ($1, $2, $3, $4, $5)',
      [token.id, token.name, token.scope, token.hash, token.createdAt],
    );
    return {
      id: token.id,
      name: token.name,
      scope: token.scope,
      createdAt: token.createdAt,
      revokedAt: null,
    };
  }

  async list(): Promise<ApiToken[]> {
    const { rows } = await (await this.pool()).query<Row>('SELECT * FROM api_tokens ORDER BY created_at, id');
    return rows.map(toToken);
  }

  async byHash(hash: string): Promise<ApiToken | null> {
    const { rows } = await (await this.pool()).query<Row>('SELECT * FROM api_tokens WHERE hash = $1', [hash]);
    return rows[0] ? toToken(rows[0]) : null;
  }

  async revoke(id: string, at: number): Promise<boolean> {
    const { rowCount } = await (await this.pool()).query(
      'UPDATE api_tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL',
      [at, id],
    );
    return rowCount === 1;
  }
}
