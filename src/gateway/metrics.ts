import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { JobChange } from '../engine/job-runner.js';
import type { LeaseCount } from '../engine/leased-jobs.js';
import type { JobObserver } from '../engine/supervisor.js';
import type { EffectName } from '../events/effect-results.js';
import type { EventStore } from '../store/event-store.js';
import type { QueueStats } from '../store/job-leases.js';
import { withWorkSampledDelay } from './event-loop-sampling.js';

// booty's Prometheus metrics, in a registry of their own so two servers in one process (tests, the
// bench) never share counters. Job states and the queue are read from the store on each scrape,
// so they are right after a restart; tokens are counted as the job log grows.
// Two kinds, for a fleet: what each worker does (counters, booty_jobs_running_here) adds up over
// the workers (sum); what the shared database holds (booty_store_jobs, booty_queue_*) is the same
// on every worker, so it is aggregated with max(), never sum() (docs/grafana-dashboard.json does).

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
  /** What `booty_jobs_running_here` reports: the jobs this process runs now; `worker` labels it. */
  watchRunning: (count: () => number, worker?: string) => void;
  /** Counts what the lease loop saw (takes, takeovers, failed renewals, lapses, halts). */
  countLease: (what: LeaseCount, n?: number) => void;
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
  let store: EventStore | null = null;
  let runningHere: () => number = () => 0;
  let workerName = '';
  // The event loop's delay is sampled while there is work (event-loop-sampling.ts).
  const delay =
    (options.defaultMetrics ?? true)
      ? withWorkSampledDelay(
          () => collectDefaultMetrics({ register: registry, prefix: 'booty_' }),
          () => runningHere(),
        )
      : null;
  const work = () => delay?.work();

  const deliveries = new Counter({
    name: 'booty_webhook_deliveries_total',
    help: 'Webhook deliveries by outcome',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const byState = async (gauge: Gauge<'state'>) => {
    gauge.reset();
    if (!store) return;
    let counts: Record<string, number>;
    try {
      counts = await store.countJobsByState();
    } catch {
      return; // a store that cannot be read shows no jobs; /readyz says why
    }
    for (const [state, n] of Object.entries(counts)) gauge.set({ state }, n);
  };
  new Gauge({
    name: 'booty_store_jobs',
    help: 'Jobs in the shared event store by state: the same on every worker, aggregate with max(), not sum()',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      return byState(this);
    },
  });
  // The same count under its first name, for dashboards made before booty_store_jobs; it too is
  // the store's, the same on every worker.
  new Gauge({
    name: 'booty_jobs',
    help: 'Deprecated name of booty_store_jobs (the same on every worker: max(), not sum())',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      return byState(this);
    },
  });
  // The store counts every worker's jobs; with many workers, this is one worker's share (the jobs
  // it runs): its load, and what it hands back when it stops. It adds up over the workers.
  new Gauge({
    name: 'booty_jobs_running_here',
    help: 'Jobs this process is running now, by worker (adds up over the workers)',
    labelNames: ['worker'],
    registers: [registry],
    collect() {
      this.reset();
      this.set({ worker: workerName }, runningHere());
    },
  });
  // The queue of many workers, read from pg-boss's rows on each scrape (the same on every worker).
  // One read serves both gauges: a scrape collects them at once, and each shows that read.
  new Gauge({
    name: 'booty_queue_jobs',
    help: 'Jobs in the shared queue by state (queued: due and held by none; leased; delayed: halted, not yet due). Aggregate with max()',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      this.reset();
      const stats = await queueStats();
      if (!stats) return;
      this.set({ state: 'queued' }, stats.queued);
      this.set({ state: 'leased' }, stats.leased);
      this.set({ state: 'delayed' }, stats.delayed);
    },
  });
  new Gauge({
    name: 'booty_queue_oldest_seconds',
    help: 'How long the longest-waiting queued job has waited, in seconds (0: none waits). Aggregate with max()',
    registers: [registry],
    async collect() {
      this.reset();
      const stats = await queueStats();
      if (stats) this.set(stats.oldestSeconds);
    },
  });
  let reading: Promise<QueueStats | null> | null = null;
  const queueStats = () => {
    reading ??= readQueueStats().finally(() => {
      reading = null;
    });
    return reading;
  };
  const readQueueStats = async () => {
    const leases = store?.leases;
    if (!leases) return null;
    try {
      return await leases.stats();
    } catch {
      return null; // /readyz says why the database cannot be read
    }
  };
  const leaseCounters: Record<LeaseCount, Counter> = {
    take: new Counter({
      name: 'booty_lease_takes_total',
      help: 'Jobs this worker leased from the queue',
      registers: [registry],
    }),
    takeover: new Counter({
      name: 'booty_lease_takeovers_total',
      help: 'Jobs this worker leased whose last lease had lapsed (moved from a dead or cut-off worker)',
      registers: [registry],
    }),
    'renewal-failure': new Counter({
      name: 'booty_lease_renewal_failures_total',
      help: "This worker's lease renewals that failed (the database did not answer)",
      registers: [registry],
    }),
    lapse: new Counter({
      name: 'booty_lease_lapses_total',
      help: 'Leases this worker found lapsed and put back in the queue (each lapse is counted by one worker)',
      registers: [registry],
    }),
    halt: new Counter({
      name: 'booty_lease_halts_total',
      help: 'Runs here that halted on a fault and were let go with a delay',
      registers: [registry],
    }),
  };
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
      work();
      const spent = change.tokens;
      if (!spent) return;
      for (const [kind, key] of Object.entries(tokenKinds) as [TokenKind, keyof typeof spent][]) {
        if (spent[key] > 0) tokens.inc({ kind }, spent[key]);
      }
    },
  };

  return {
    registry,
    observeEffect: (src, durationMs, ok) => {
      work();
      effects.observe({ effect: src, result: ok ? 'ok' : 'error' }, durationMs / 1000);
    },
    countDelivery: (outcome) => {
      delay?.brief();
      deliveries.inc({ outcome });
    },
    countDeliveryLook: (result) => deliveryLooks.inc({ result }),
    countRedelivery: () => redeliveries.inc(),
    countStoreWriteFailure: () => storeWriteFailures.inc(),
    watchStore: (s) => {
      store = s;
    },
    watchRunning: (count, worker = '') => {
      runningHere = count;
      workerName = worker;
    },
    countLease: (what, n = 1) => leaseCounters[what].inc(n),
    jobObserver,
  };
}
