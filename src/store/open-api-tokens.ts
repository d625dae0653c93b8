import { BootyError } from '../errors.js';
import type { ApiTokens } from './api-tokens.js';
import type { EventStore } from './event-store.js';
import { PostgresApiTokens } from './postgres/postgres-api-tokens.js';
import { PostgresEventStore } from './postgres/postgres-event-store.js';
import { SqliteEventStore } from './sqlite/sqlite-event-store.js';
import { SqliteApiTokens } from './sqlite-api-tokens.js';

// The jobs API's tokens live in the event store's own database, so a fleet's workers all accept
// the tokens any of them was given, and a backup of the store keeps them.

export function apiTokensOf(store: EventStore): ApiTokens {
  if (store instanceof SqliteEventStore) return new SqliteApiTokens(store.connection());
  if (store instanceof PostgresEventStore) return new PostgresApiTokens(() => store.connection());
  throw new BootyError('BOOTY_E_DB_OPEN', {
    path: 'the event store',
    reason: 'it keeps no API tokens (only the SQLite and PostgreSQL stores do)',
  });
}
