import fs from 'node:fs';
import { BootyError } from '../errors.js';

// SQLite maps `<db>-shm` (the write-ahead log's index) into memory and writes it on reads and
// writes alike. When that file is made immutable (chattr +i) or read-only under a running booty,
// the kernel answers the next write to a mapped page with SIGBUS: the process dies at once, with
// no error to catch and no log line. So each call first asks the kernel whether the files still
// take writes (one access(2) each, microseconds), and a refusal is a store fault like a full disk:
// jobs pause, nothing touches the mapping, and the next call that finds them writable goes on.
// Only files that took writes when the store opened are watched: a file SQLite opened read-only
// (a reader without write permission) is never written through.

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
  private readonly all: string[];

  /** `file`: the database, open already in WAL mode (its -wal and -shm exist). */
  constructor(file: string) {
    this.all = file === ':memory:' ? [] : files(file).filter((f) => refusal(f) === null);
    this.index = this.all.filter((f) => f.endsWith('-shm'));
  }

  /**
   * Throws BOOTY_E_STORE_READONLY when a watched file refuses writes now: before a write, any of
   * the three; before a read, the mapped index, which a read writes too.
   */
  check(kind: 'read' | 'write') {
    for (const file of kind === 'write' ? this.all : this.index) {
      const code = refusal(file);
      if (code) throw new BootyError('BOOTY_E_STORE_READONLY', { path: file, code });
    }
  }

  /** Whether the mapped index takes writes: closing the last connection checkpoints through it. */
  get indexWritable(): boolean {
    return this.index.every((f) => refusal(f) === null);
  }
}
