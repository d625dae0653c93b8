import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiTokenHash, newApiTokenSecret } from '../../src/store/api-token-secret.js';
import type { EventStore } from '../../src/store/event-store.js';
import { apiTokensOf } from '../../src/store/open-api-tokens.js';
import { PostgresEventStore } from '../../src/store/postgres/postgres-event-store.js';
import { SqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import { tempDir } from '../support/job-harness.js';
import { freshDatabase } from '../support/postgres-database.js';

// The jobs API's tokens, one contract for both stores: only a hash is kept, a token is found by
// its hash, and a revoked one is found as revoked.

const stores: [string, () => Promise<EventStore>][] = [
  ['SQLite', async () => new SqliteEventStore(path.join(tempDir('booty-tokens-'), 'booty.db'))],
  ['PostgreSQL', async () => PostgresEventStore.open(await freshDatabase())],
];

describe.each(stores)('API tokens on %s', (_, open) => {
  it('keeps the hash alone, finds a token by it, and revokes once', async () => {
    const store = await open();
    try {
      const tokens = apiTokensOf(store);
      const secret = newApiTokenSecret();
      expect(secret.token).toMatch(new RegExp(`^booty_${secret.id}_[A-Za-z0-9_-]{43}$`));
      expect(secret.hash).toBe(apiTokenHash(secret.token));
      const made = await tokens.create({
        id: secret.id,
        name: 'ci',
        scope: 'write',
        hash: secret.hash,
        createdAt: 5,
      });
      expect(made).toEqual({ id: secret.id, name: 'ci', scope: 'write', createdAt: 5, revokedAt: null });
      const other = newApiTokenSecret();
      await tokens.create({ id: other.id, name: 'dash', scope: 'read', hash: other.hash, createdAt: 6 });

      expect(await tokens.byHash(apiTokenHash(secret.token))).toEqual(made);
      expect(await tokens.byHash(apiTokenHash(`${secret.token}x`))).toBeNull();
      expect(await tokens.revoke(secret.id, 9)).toBe(true);
      expect(await tokens.revoke(secret.id, 10)).toBe(false);
      expect(await tokens.revoke('nope', 10)).toBe(false);
      expect(await tokens.byHash(secret.hash)).toEqual({ ...made, revokedAt: 9 });
      expect((await tokens.list()).map((t) => [t.name, t.scope, t.revokedAt])).toEqual([
        ['ci', 'write', 9],
        ['dash', 'read', null],
      ]);
      // A token's text is nowhere in the store: only its hash.
      const rows = JSON.stringify(await tokens.list());
      expect(rows).not.toContain(secret.token);
    } finally {
      await store.close();
    }
  });
});
