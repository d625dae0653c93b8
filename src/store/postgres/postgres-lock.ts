import os from 'node:os';
import { BootyError } from '../../errors.js';
import type { DbLock } from '../db-lock.js';
import { redactUrl } from './postgres-url.js';

// One writing booty per PostgreSQL database, until workers lease jobs: a session-level advisory
// lock, held on a connection of its own for as long as serve runs. The server lets go of it when
// that connection ends, however the process ended, SIGKILL included. The holder is named by the
// connection's application_name, which the next booty reads from pg_stat_activity.

const SERVE_LOCK = 0x73657276; // "serv"
const POLL_MS = 100;

export async function lockPostgres(url: string, options: { waitMs: number }): Promise<DbLock> {
  const { default: pg } = await import('pg');
  const holder = `${process.pid} on ${os.hostname()}`;
  const client = new pg.Client({ connectionString: url, application_name: `booty ${holder}`.slice(0, 63) });
  // A dropped connection has dropped the lock too; the store's own connections report the fault.
  client.on('error', () => undefined);
  try {
    await client.connect();
    const deadline = Date.now() + options.waitMs;
    for (;;) {
      const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [
        SERVE_LOCK,
      ]);
      if (rows[0]!.ok) break;
      if (Date.now() >= deadline) {
        const { rows: by } = await client.query<{ name: string }>(
          `SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
           WHERE l.locktype = 'advisory' AND l.granted AND l.database = a.datid
             AND a.datname = current_database() AND l.classid = 0 AND l.objid = $1 AND l.objsubid = 1`,
          [SERVE_LOCK],
        );
        throw new BootyError('BOOTY_E_DB_LOCKED', {
          pid: by[0]?.name.replace(/^booty /, '') ?? 'unknown',
          path: redactUrl(url),
          waitMs: options.waitMs,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } catch (err) {
    await client.end().catch(() => undefined);
    if (err instanceof BootyError) throw err;
    throw new BootyError(
      'BOOTY_E_DB_OPEN',
      { path: redactUrl(url), reason: (err as Error).message },
      { cause: err },
    );
  }
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      // Ending the connection is what lets go; an exit before it finishes lets go all the same.
      void client.end().catch(() => undefined);
    },
  };
}
