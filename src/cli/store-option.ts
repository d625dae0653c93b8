import { loadEnv, storeLocation } from '../env.js';
import type { EventStore } from '../store/event-store.js';
import type { Options, Values } from './command.js';

// The `--db` option the commands that read or write the store share. Apart from command.ts so
// that `booty --help`, which loads only that, does not load the settings' schemas too.

export const dbOption = { db: { type: 'string' } } as const satisfies Options;
export const dbHelp =
  '  --db PATH|URL  the event store: a SQLite file, or a postgres:// URL (default: $BOOTY_DATABASE_URL,\n                 else $BOOTY_DB, else ./booty.db)';

/**
 * Where the store is, read as every command reads its settings: `--db`, else the environment and
 * ./.env (BOOTY_DATABASE_URL or its _FILE, with BOOTY_DATABASE_PASSWORD; else BOOTY_DB).
 */
export const storeOf = (values: Values, env: NodeJS.ProcessEnv): string =>
  storeLocation(loadEnv({ ...env, ...(values.db ? dbEnv(values.db as string) : {}) }));

/** The database for read-only commands: never created by reading it. Loaded only by them. */
export async function openExistingStore(values: Values, env: NodeJS.ProcessEnv): Promise<EventStore> {
  const location = storeOf(values, env);
  const { openExistingStore } = await import('../main/open-store.js');
  return openExistingStore(location);
}

/** `--db` in the environment's words: a postgres:// URL is BOOTY_DATABASE_URL, a path BOOTY_DB. */
export const dbEnv = (db: string): NodeJS.ProcessEnv =>
  /^postgres(ql)?:\/\//i.test(db)
    ? { BOOTY_DATABASE_URL: db, BOOTY_DATABASE_URL_FILE: '' }
    : {
        BOOTY_DB: db,
        BOOTY_DATABASE_URL: '',
        BOOTY_DATABASE_URL_FILE: '',
        BOOTY_DATABASE_PASSWORD: '',
        BOOTY_DATABASE_PASSWORD_FILE: '',
      };
