import fs from 'node:fs';
import { BootyError, isBootyError } from '../errors.js';
import type { EventStore } from './event-store.js';

// Whether the store takes writes, for a long-running server. A write that fails for lack of disk
// (or any I/O fault) puts the store in `failing`: deliveries get 503, readiness fails, and the
// supervisor pauses jobs instead of letting them wedge. A probe write then runs every interval;
// the first that commits puts the store back to `ok`, and the paused jobs resume from their logs,
// with no restart. While the store is ok, each interval only checks that the database file is still
// the one opened (a readiness probe also writes): deleted or replaced under the process, it is
// `lost` for good, and nothing is written any more. A server database has no file: while it takes
// writes, nothing runs.

export type StoreState = 'ok' | 'failing' | 'lost';

/**
 * A store that cannot write now. SQLite: the disk, I/O, a read-only or vanished file, and a file
 * that refuses writes (EPERM, EACCES, EROFS) before SQLite touches it (write-guard.ts).
 * PostgreSQL (SQLSTATE): the connection (08), the server's resources or disk (53), a server
 * shutting down (57P), a read-only one (25006); and a connection the network refused or lost.
 */
function isStoreFault(err: unknown): boolean {
  if (isBootyError(err, 'BOOTY_E_STORE_READONLY')) return true;
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  if (typeof message === 'string' && /^Connection terminated/.test(message)) return true;
  return (
    typeof code === 'string' &&
    (/^SQLITE_(FULL|IOERR|READONLY|PERM|CANTOPEN|CORRUPT|NOTADB)/.test(code) ||
      /^(08...|53...|57P0.|25006)$/.test(code) ||
      /^E(CONNREFUSED|CONNRESET|PIPE|TIMEDOUT|HOSTUNREACH|NETUNREACH)$/.test(code))
  );
}

export interface StoreHealthOptions {
  store: Pick<EventStore, 'probeWritable'>;
  /** The database file, to notice it deleted or replaced; none for a store without one. */
  file?: string;
  /** How often the probe runs; default 1000 ms. */
  intervalMs?: number;
  /** Called once per fault, and on recovery. */
  onChange?: (state: StoreState, cause: string | null) => void;
  /** Counts each failed write, the probe's included. */
  onWriteFailure?: () => void;
}

export class StoreHealth {
  private current: StoreState = 'ok';
  private why: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private started = false;
  private checking: Promise<void> | null = null;
  private readonly identity: { dev: number; ino: number } | null;

  constructor(private readonly options: StoreHealthOptions) {
    const stat = options.file ? fs.statSync(options.file, { throwIfNoEntry: false }) : undefined;
    this.identity = stat ? { dev: stat.dev, ino: stat.ino } : null;
  }

  get ok(): boolean {
    return this.current === 'ok';
  }

  /** The error a caller gets while the store is not ok. */
  error(): BootyError {
    return this.current === 'lost'
      ? new BootyError('BOOTY_E_STORE_LOST', {
          path: this.options.file ?? 'the database',
          how: this.why ?? 'replaced',
        })
      : new BootyError('BOOTY_E_STORE_UNAVAILABLE', { reason: this.why ?? 'a write failed' });
  }

  start() {
    this.started = true;
    this.arm();
  }

  stop() {
    this.started = false;
    this.arm();
  }

  /**
   * The interval runs while it has something to look at: a file, or a failing store to probe. A
   * server database that takes writes has neither, and an idle worker is not woken every second.
   */
  private arm() {
    const needed = this.started && (this.identity !== null || this.current === 'failing');
    if (needed && !this.timer) {
      this.timer = setInterval(() => void this.tick(), this.options.intervalMs ?? 1000);
      this.timer.unref();
    } else if (!needed && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** Whether the error is the store's fault (it takes no writes now), without changing the state. */
  isFault(err: unknown): boolean {
    return isStoreFault(err);
  }

  /**
   * A write failed: when it was the store's fault, the store is failing until a probe commits, or
   * lost for good when the write failed because the file was deleted or replaced under it.
   */
  failed(err: unknown): boolean {
    if (!isStoreFault(err)) return false;
    this.options.onWriteFailure?.();
    const replaced = this.replaced();
    if (replaced) this.set('lost', replaced);
    else this.set('failing', (err as Error).message);
    return true;
  }

  /** The interval's look: a probe write while failing, else only the file's identity. */
  private tick() {
    if (this.current === 'failing') return this.check();
    const replaced = this.replaced();
    if (replaced) this.set('lost', replaced);
  }

  /** Probes now with a write; resolves when done, whatever it found. */
  check(): Promise<void> {
    this.checking ??= this.probe().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async probe() {
    if (this.current === 'lost') return;
    const replaced = this.replaced();
    if (replaced) return this.set('lost', replaced);
    try {
      await this.options.store.probeWritable();
      this.set('ok', null);
    } catch (err) {
      this.options.onWriteFailure?.();
      this.set('failing', (err as Error).message);
    }
  }

  /** How the database file changed under the process, or null when it is the one opened. */
  private replaced(): string | null {
    if (!this.options.file || !this.identity) return null;
    const stat = fs.statSync(this.options.file, { throwIfNoEntry: false });
    if (!stat) return 'deleted';
    if (stat.dev !== this.identity.dev || stat.ino !== this.identity.ino) return 'replaced';
    return null;
  }

  private set(state: StoreState, cause: string | null) {
    if (this.current === 'lost') return;
    const changed = state !== this.current;
    this.current = state;
    this.why = cause;
    this.arm();
    if (changed) this.options.onChange?.(state, cause);
  }
}
