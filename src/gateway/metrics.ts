import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { JobChange } from '../engine/job-runner.js';
import type { JobObserver } from '../engine/supervisor.js';
import type { EffectName } from '../events/effect-results.js';
import type { EventStore } from '../store/event-store.js';

// booty's Prometheus metrics, in a registry of their own so two servers in one process (tests, the
// bench) never share counters. Job states are read from the store on each scrape, so they are right
// after a restart; tokens are counted as the job log grows.

export interface GatewayMetrics {
  registry: Registry;
  /** Pass as the Supervisor's `observeEffect`: records how long each effect took. */
  observeEffect: (src: EffectName, durationMs: number, ok: boolean) => void;
  /** Counts a webhook delivery by outcome (a submit outcome or an error code). */
  countDelivery: (outcome: string) => void;
  /** A look at the App's webhook deliveries for ones booty missed, by how it ended. */
  countDeliveryLook: (result: 'ok' | 'failed') => void;
  /** A missed delivery booty asked GitHub to send again. */
  countRedelivery: () => void;
  /** A write the store refused for lack of disk or an I/O fault (the health probe's included). */
  countStoreWriteFailure: () => void;
  /** The store whose jobs `booty_jobs` reports. */
  watchStore: (store: EventStore) => void;
  /** What `booty_jobs_running_here` reports: the jobs this process runs now. */
  watchRunning: (count: () => number) => void;
  /** Pass to the Supervisor's observers: counts model tokens as jobs spend them. */
  jobObserver: JobObserver;
}

type TokenKind = 'input' | 'output' | 'cache_read' | 'cache_write';
const tokenKinds: Record<TokenKind, 'input' | 'output' | 'cacheRead' | 'cacheWrite'> = {
  input: 'input',
  output: 'output',
  cache_read: 'cacheRead',
  cache_write: 'cacheWrite',
};

export function createMetrics(options: { defaultMetrics?: boolean } = {}): GatewayMetrics {
  const registry = new Registry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'booty_' });
  let store: EventStore | null = null;
  let runningHere: () => number = () => 0;

  const deliveries = new Counter({
    name: 'booty_webhook_deliveries_total',
    help: 'Webhook deliveries by outcome',
    labelNames: ['outcome'],
    registers: [registry],
  });
  new Gauge({
    name: 'booty_jobs',
    help: 'Jobs in the event store by state',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      this.reset();
      if (!store) return;
      let counts: Record<string, number>;
      try {
        counts = await store.countJobsByState();
      } catch {
        return; // a store that cannot be read shows no jobs; /readyz says why
      }
      for (const [state, n] of Object.entries(counts)) this.set({ state }, n);
    },
  });
  // The store counts every worker's jobs; with many workers, this is one worker's share (the jobs
  // it holds leases for): its load, and what it hands back when it stops.
  new Gauge({
    name: 'booty_jobs_running_here',
    help: 'Jobs this process is running now',
    registers: [registry],
    collect() {
      this.set(runningHere());
    },
  });
  const effects = new Histogram({
    name: 'booty_effect_duration_seconds',
    help: 'How long each effect took, by effect and result',
    labelNames: ['effect', 'result'],
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
    registers: [registry],
  });
  const tokens = new Counter({
    name: 'booty_tokens_total',
    help: 'Model tokens spent by jobs, by kind',
    labelNames: ['kind'],
    registers: [registry],
  });

  const deliveryLooks = new Counter({
    name: 'booty_delivery_looks_total',
    help: "Looks at the App's webhook deliveries for ones booty missed, by result",
    labelNames: ['result'],
    registers: [registry],
  });
  const redeliveries = new Counter({
    name: 'booty_redeliveries_requested_total',
    help: 'Missed webhook deliveries booty asked GitHub to send again',
    registers: [registry],
  });

  const storeWriteFailures = new Counter({
    name: 'booty_store_write_failures_total',
    help: 'Writes the store refused: a full disk, an I/O fault, a read-only or vanished file',
    registers: [registry],
  });

  // Each logged event carries the tokens its own effect spent, so a job resumed after a restart
  // counts only what it spends here.
  const jobObserver: JobObserver = {
    changed(change: JobChange) {
      const spent = change.tokens;
      if (!spent) return;
      for (const [kind, key] of Object.entries(tokenKinds) as [TokenKind, keyof typeof spent][]) {
        if (spent[key] > 0) tokens.inc({ kind }, spent[key]);
      }
    },
  };

  return {
    registry,
    observeEffect: (src, durationMs, ok) =>
      effects.observe({ effect: src, result: ok ? 'ok' : 'error' }, durationMs / 1000),
    countDelivery: (outcome) => deliveries.inc({ outcome }),
    countDeliveryLook: (result) => deliveryLooks.inc({ result }),
    countRedelivery: () => redeliveries.inc(),
    countStoreWriteFailure: () => storeWriteFailures.inc(),
    watchStore: (s) => {
      store = s;
    },
    watchRunning: (count) => {
      runningHere = count;
    },
    jobObserver,
  };
}
