import type { Logger } from '../log.js';

// What a signal does to a running booty: its lifecycle closes, within the drain and the grace.

export interface SignalOptions {
  log: Logger;
  signals?: NodeJS.Signals[];
  /** How long running steps may take to finish first (BOOTY_DRAIN_MS); the grace starts after. */
  drainMs?: number;
  /** How long close() may take, after the drain, before the process exits anyway (BOOTY_SHUTDOWN_GRACE_MS). */
  graceMs?: number;
  exit?: (code: number) => void;
}

/**
 * On SIGTERM or SIGINT: take no new job, let the running steps finish (within the drain), hand
 * back the rest, flush what can be flushed, close the store, exit 0. What is not flushed within
 * the grace is in the log and is caught up on the next start, so the exit is still 0: a process
 * manager's own deadline is never what ends booty. A second signal ends the drain: the running
 * steps are handed back at once (`hurry`), as a first one did before drains. A third exits at
 * once, with 1. Returns a function that removes the handlers.
 */
export function installShutdownSignals(
  server: { close(): Promise<void>; hurry?(): void },
  options: SignalOptions,
) {
  const { log, signals = ['SIGTERM', 'SIGINT'], drainMs = 0, graceMs = 10_000 } = options;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let received = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    received += 1;
    if (received === 2 && server.hurry) {
      log.warn({ signal }, 'second signal: handing back the running jobs now');
      server.hurry();
      return;
    }
    if (received > 1) {
      log.warn({ signal }, 'another signal: exiting without waiting');
      exit(1);
      return;
    }
    log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      log.warn({ drainMs, graceMs }, 'shutdown grace is over: exiting; the log keeps what was not flushed');
      exit(0);
    }, drainMs + graceMs);
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
