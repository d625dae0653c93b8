import type { Logger } from '../log.js';

// What a signal does to a running booty: its lifecycle closes, within the grace.

export interface SignalOptions {
  log: Logger;
  signals?: NodeJS.Signals[];
  /** How long close() may take before the process exits anyway (BOOTY_SHUTDOWN_GRACE_MS). */
  graceMs?: number;
  exit?: (code: number) => void;
}

/**
 * On SIGTERM or SIGINT: stop taking deliveries, stop the jobs (their logs resume them on the next
 * start), flush what can be flushed, close the store, exit 0. What is not flushed within the grace
 * is in the log and is caught up on the next start, so the exit is still 0: a process manager's
 * own deadline is never what ends booty. A second signal exits at once, with 1. Returns a function
 * that removes the handlers.
 */
export function installShutdownSignals(server: { close(): Promise<void> }, options: SignalOptions) {
  const { log, signals = ['SIGTERM', 'SIGINT'], graceMs = 10_000 } = options;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let shuttingDown = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (shuttingDown) {
      log.warn({ signal }, 'second signal: exiting without waiting');
      exit(1);
      return;
    }
    shuttingDown = true;
    log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      log.warn({ graceMs }, 'shutdown grace is over: exiting; the log keeps what was not flushed');
      exit(0);
    }, graceMs);
    timer.unref();
    server.close().then(
      () => {
        clearTimeout(timer);
        log.info('stopped');
        exit(0);
      },
      (err: unknown) => {
        clearTimeout(timer);
        log.error({ err }, 'shutdown failed');
        exit(1);
      },
    );
  };
  for (const s of signals) process.on(s, onSignal);
  return () => {
    for (const s of signals) process.off(s, onSignal);
  };
}
