import { loadEnv, storeLocation } from '../env.js';
import { isPostgresUrl, redactUrl } from '../store/postgres/postgres-url.js';
import type { Command } from './command.js';
import { dbEnv, dbHelp, dbOption } from './store-option.js';

// `booty migrate`: brings the store's schema up to this booty's, and on PostgreSQL the job queue's
// (pg-boss, schema pgboss), then exits. A fleet runs it once per release as the database's owner,
// so the workers can connect as a role that may use booty's tables but change none (compose.yaml).

export const migrateCommand: Command = {
  name: 'migrate',
  usage: [
    'Usage: booty migrate [--db PATH|URL]',
    '',
    "Applies booty's schema migrations to the store, and on PostgreSQL creates or upgrades the job",
    "queue's schema (pgboss), then exits. Run it as the database's owner before the workers start;",
    'the workers then need no right to change the schema (README, Operations). `serve` migrates too',
    'where its user may.',
    '',
    dbHelp,
  ].join('\n'),
  options: { ...dbOption },
  positionals: [],
  async run({ values }, io) {
    const env = loadEnv({ ...io.env, ...(values.db ? dbEnv(values.db as string) : {}) });
    const location = storeLocation(env);
    const { openStore } = await import('../main/open-store.js');
    const postgres = isPostgresUrl(location);
    // A leasing store starts the queue, which is what creates pg-boss's schema and booty's queue.
    const store = openStore(
      location,
      postgres ? { server: true, leases: { seconds: 30, pollMs: 60_000 } } : {},
    );
    try {
      await store.countJobsByState();
      await store.leases?.ready();
    } finally {
      await store.close();
    }
    io.out(
      `${postgres ? redactUrl(location) : location}: booty's schema${postgres ? ' and the job queue' : ''} are current`,
    );
    return 0;
  },
};
