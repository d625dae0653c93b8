import fs from 'node:fs';
import { BootyError } from '../errors.js';

// SQLite maps `<db>-shm` (the write-ahead log's index) into memory and writes it on reads and
// writes alike. When that file is made immutable (chattr +i) or read-only under a running booty,
// the kernel answers the next write to a mapped page with SIGBUS: the process dies at once, with
// no error to catch and no log line. So each call first asks the kernel whether the index still
// takes writes (one access(2), microseconds), and a refusal is a store fault like a full disk:
// jobs pause, nothing touches the mapping, and the next call that finds it writable goes on. The
// database and its -wal are written through write(2), not a mapping: a refusal there comes back
// as SQLite's own SQLITE_IOERR or SQLITE_READONLY, a store fault too (store-health.ts), so an
// append pays for one check, not three. An index SQLite opened read-only (a reader without write
// permission) is never written through, and is not watched.

const REFUSED = new Set(['EPERM', 'EACCES', 'EROFS']);

/** The code a write to `file` would meet now (EPERM, EACCES, EROFS), or null. */
function refusal(file: string): string | null {
  try {
    fs.accessSync(file, fs.constants.W_OK);
    return null;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code && REFUSED.has(code) ? code : null;
  }
}

const files = (db: string) => [db, `${db}-wal`, `${db}-shm`];

/**
 * For a server about to open `db`: throws BOOTY_E_STORE_READONLY when one of its files refuses
 * writes now. SQLite would open it read-only and stay so, a server that never takes a write even
 * once the file is writable again; refused at start, a process manager's restart picks it up.
 */
export function assertWritable(db: string) {
  for (const file of db === ':memory:' ? [] : files(db)) {
    const code = refusal(file);
    if (code) throw new BootyError('BOOTY_E_STORE_READONLY', { path: file, code });
  }
}

export class WriteGuard {
  private readonly index: string[];

  /** `file`: the database, open already in WAL mode (its -wal and -shm exist). */
  constructor(file: string) {
    this.index = file === ':memory:' ? [] : [`${file}-shm`].filter((f) => refusal(f) === null);
  }

  /** Throws BOOTY_E_STORE_READONLY when the mapped index refuses writes now: reads write it too. */
  check() {
    for (const file of this.index) {
      const code = refusal(file);
      if (code) throw new BootyError('BOOTY_E_STORE_READONLY', { path: file, code });
    }
  }

  /** Whether the mapped index takes writes: closing the last connection checkpoints through it. */
  get indexWritable(): boolean {
    return this.index.every((f) => refusal(f) === null);
  }
}
