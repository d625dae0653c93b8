import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { BootyError } from '../../errors.js';

// One writing booty per SQLite file. The lock is SQLite's own: an exclusive transaction held open
// on a small database beside BOOTY_DB (`<db>.lock`), so the operating system lets go of it when
// the process ends however it ends, SIGKILL included; no stale lock is ever left. The holder's pid
// is written beside it (`<db>.lock.pid`), only to name it. Readers (`booty jobs`, `booty replay`)
// open BOOTY_DB itself and never ask for this lock.

export interface DbLock {
  release(): void;
}

const POLL_MS = 100;

export async function lockDatabase(db: string, options: { waitMs: number }): Promise<DbLock> {
  const file = `${db}.lock`;
  const pidFile = `${file}.pid`;
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const conn = new Database(file, { timeout: 0 });
  const deadline = Date.now() + options.waitMs;
  for (;;) {
    try {
      conn.exec('BEGIN EXCLUSIVE');
      break;
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY') {
        conn.close();
        throw new BootyError('BOOTY_E_DB_OPEN', { path: file, reason: (err as Error).message });
      }
      if (Date.now() >= deadline) {
        conn.close();
        const pid = fs.existsSync(pidFile) ? fs.readFileSync(pidFile, 'utf8').trim() || 'unknown' : 'unknown';
        throw new BootyError('BOOTY_E_DB_LOCKED', { pid, path: db, waitMs: options.waitMs });
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
  fs.writeFileSync(pidFile, `${process.pid}\n`);
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      fs.rmSync(pidFile, { force: true });
      conn.exec('ROLLBACK');
      conn.close();
    },
  };
}
