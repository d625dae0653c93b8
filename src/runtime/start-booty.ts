import type { InspectionEvent } from 'xstate';
import type { JobObserver } from '../actors/supervisor.js';
import type { Env } from '../env.js';
import { createMetrics } from '../gateway/metrics.js';
import { type RunningServer, startServer } from '../gateway/serve.js';
import type { Logger } from '../log.js';
import type { SandboxMode } from '../sandbox/bwrap.js';
import { openStore } from '../store/open-store.js';
import type { SqliteEventStore } from '../store/sqlite-event-store.js';
import { createJobRuntime, type JobRuntime } from './job-effects.js';

// booty as one running process: the event store, the real effects, the supervisor and the HTTP
// gateway. `booty serve` and `booty demo` both start it here.

export interface StartBootyOptions {
  env: Env;
  log: Logger;
  observers?: JobObserver[];
  inspect?: (event: InspectionEvent) => void;
  githubRetryBaseMs?: number;
  /** The sandbox mode when BOOTY_SANDBOX does not say (serve: required; demo: auto). */
  defaultSandbox?: SandboxMode;
}

export interface Booty {
  server: RunningServer;
  runtime: JobRuntime;
  store: SqliteEventStore;
  /** Stops taking work, stops the jobs (their logs keep them), flushes comments, closes the store. */
  close(): Promise<void>;
}

export async function startBooty(options: StartBootyOptions): Promise<Booty> {
  const { env, log } = options;
  const store = openStore(env.BOOTY_DB, { server: true });
  try {
    const metrics = createMetrics();
    const runtime = createJobRuntime({
      env,
      log,
      store,
      observeEffect: metrics.observeEffect,
      githubRetryBaseMs: options.githubRetryBaseMs,
      defaultSandbox: options.defaultSandbox,
    });
    const server = await startServer({
      env,
      log,
      store,
      metrics,
      machine: runtime.machine,
      observers: [...runtime.observers, ...(options.observers ?? [])],
      inspect: options.inspect,
    });
    let closed: Promise<void> | null = null;
    const close = () => {
      closed ??= (async () => {
        try {
          await server.close();
          await runtime.reporter.idle();
          await runtime.workspace.idle();
        } finally {
          store.close();
        }
      })();
      return closed;
    };
    return { server, runtime, store, close };
  } catch (err) {
    store.close();
    throw err;
  }
}
