import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

// SQLite folds the write-ahead log back into the database (a checkpoint) during a commit once the
// log has grown by 1,000 pages, and that commit then stalls for the copy and its fsync. The webhook
// gateway answers from the same thread, so those stalls became its slowest replies. A checkpointer
// runs the same PASSIVE checkpoints on a worker thread with its own connection instead; passive
// checkpoints never block a writer. If the worker dies, the store turns SQLite's own back on.
// The worker opens its connection a moment after the store does; by then the file may be gone,
// and opening it must not create an empty database in its place (fileMustExist). A checkpoint
// writes the database and the mapped index: it waits while either refuses writes, since a write
// to the index mapped from a file made immutable is SIGBUS for the whole process (write-guard.ts).

const script = `
const fs = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
const writable = (f) => { try { fs.accessSync(f, fs.constants.W_OK); return true; } catch (e) { return e.code === 'ENOENT'; } };
const checkpoint = () => {
  if (!writable(workerData.file) || !writable(workerData.file + '-shm')) return;
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', () => { clearInterval(timer); checkpoint(); db.close(); parentPort.close(); });
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

export function startCheckpointer(
  file: string,
  options: { intervalMs?: number; onExit?: () => void } = {},
): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(script, {
    eval: true,
    workerData: { file, driver, intervalMs: options.intervalMs ?? 200 },
  });
  let stopping = false;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.once('error', () => {});
  void exited.then(() => {
    if (!stopping) options.onExit?.();
  });
  worker.unref();
  return {
    stop() {
      stopping = true;
      // Unreferenced, the worker would not keep the process alive for the close awaited here:
      // with nothing else pending (a serve that failed to listen) node exited 0 mid-close.
      worker.ref();
      worker.postMessage('stop');
      return exited;
    },
  };
}
