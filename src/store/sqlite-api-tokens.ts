import type Database from 'better-sqlite3';
import type { ApiScope, ApiToken, ApiTokens, NewApiToken } from './api-tokens.js';

// The jobs API's tokens in the SQLite store's file, table api_tokens (migrations.ts).

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

export class SqliteApiTokens implements ApiTokens {
  private readonly stmt;

  constructor(db: Database.Database) {
    this.stmt = {
      insert: db.prepare(
        'INSERT INTO api_tokens (id, name, scope, hash, created_at) VALUES (@id, @name, @scope, @hash, @createdAt)',
      ),
      list: db.prepare<[], Row>('SELECT * FROM api_tokens ORDER BY created_at, id'),
      byHash: db.prepare<[string], Row>('SELECT * FROM api_tokens WHERE hash = ?'),
      revoke: db.prepare('UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
    };
  }

  async create(token: NewApiToken): Promise<ApiToken> {
    this.stmt.insert.run(token);
    return {
      id: token.id,
      name: token.name,
      scope: token.scope,
      createdAt: token.createdAt,
      revokedAt: null,
    };
  }

  async list(): Promise<ApiToken[]> {
    return this.stmt.list.all().map(toToken);
  }

  async byHash(hash: string): Promise<ApiToken | null> {
    const row = this.stmt.byHash.get(hash);
    return row ? toToken(row) : null;
  }

  async revoke(id: string, at: number): Promise<boolean> {
    return this.stmt.revoke.run(at, id).changes === 1;
  }
}
