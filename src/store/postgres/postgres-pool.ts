import type { Pool } from 'pg';
import { BootyError } from '../../errors.js';
import { migrate } from './migrate.js';
import { redactUrl } from './postgres-url.js';

export interface PoolOptions {
  /** Connections the pool may hold at once (default 10). */
  maxConnections?: number;
  /** The database must hold booty's tables already (read-only commands): none is an error. */
  existing?: boolean;
}

/** A pool on the database, its schema current; BOOTY_E_DB_OPEN (or _MISSING) naming it otherwise. */
export async function connect(url: string, options: PoolOptions): Promise<Pool> {
  // pg loads with the first PostgreSQL store: `booty --help` and a SQLite booty never load it.
  const { default: pg } = await import('pg');
  const int8 = pg.types.builtins.INT8;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    // Kept open between an idle worker's periodic reads (the sweep, the probes): a new connection
    // costs a password exchange and a SET each time.
    idleTimeoutMillis: 60_000,
    application_name: 'booty',
    // booty_append's version check, and the migrations after their lock, must see what committed
    // while they waited: READ COMMITTED. A database or role defaulting to repeatable read or
    // serializable would fail concurrent appends with 40001, so every new connection sets it for
    // its session, above any such default. pg-pool awaits onConnect before it hands the connection
    // out, and closes it if the SET fails. A startup `options` parameter would save the round trip,
    // but pg lets the URL's own `options` (a search_path) replace it rather than add to it.
    onConnect: (client) =>
      client.query('SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ COMMITTED'),
    // Positions, times and counts are bigint, and stay far below 2^53: numbers, not strings.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === int8 && format !== 'binary'
          ? Number
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // A connection the server drops while idle (a restart, a failover) is replaced by the pool, and
  // the next query reports a lasting fault; unheard, this event would end the process.
  pool.on('error', () => undefined);
  try {
    if (options.existing) {
      const { rows } = await pool.query<{ t: string | null }>("SELECT to_regclass('schema_migrations') AS t");
      if (rows[0]!.t === null) throw new BootyError('BOOTY_E_DB_MISSING', { path: redactUrl(url) });
    }
    await migrate(pool, redactUrl(url));
    return pool;
  } catch (err) {
    await pool.end().catch(() => undefined);
    if (err instanceof BootyError) throw err;
    throw new BootyError(
      'BOOTY_E_DB_OPEN',
      { path: redactUrl(url), reason: (err as Error).message },
      { cause: err },
    );
  }
}
