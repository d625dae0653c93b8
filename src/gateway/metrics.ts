import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { JobChange } from '../actors/job-runner.js';
import type { JobObserver } from '../actors/supervisor.js';
import type { EffectName } from '../events/effect-results.js';
import { type UsageTotals, zeroUsage } from '../machines/job-context.js';
import type { EventStore } from '../store/event-store.js';

// booty's Prometheus metrics, in a registry of their own so two servers in one process (tests, the
// bench) never share counters. Job states are read from the store on each scrape, so they are right
// after a restart; tokens are counted as the job log grows.

export interface GatewayMetrics {
  registry: Registry;
  /** Pass to `toActors(impls, { observe })`: records how long each effect took. */
  observeEffect: (src: EffectName, durationMs: number, ok: boolean) => void;
  /** Counts a webhook delivery by outcome (a submit outcome or an error code). */
  countDelivery: (outcome: string) => void;
  /** The store whose jobs `booty_jobs` reports. */
  watchStore: (store: EventStore) => void;
  /** Pass to the Supervisor's observers: counts model tokens as jobs spend them. */
  jobObserver: JobObserver;
}

type TokenKind = 'input' | 'output' | 'cache_read' | 'cache_write';
const usageKeys: Record<TokenKind, keyof UsageTotals> = {
  input: 'inputTokens',
  output: 'outputTokens',
  cache_read: 'cacheReadTokens',
  cache_write: 'cacheWriteTokens',
};

export function createMetrics(options: { defaultMetrics?: boolean } = {}): GatewayMetrics {
  const registry = new Registry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'booty_' });
  let store: EventStore | null = null;

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
    collect() {
      this.reset();
      if (!store) return;
      let counts: Record<string, number>;
      try {
        counts = store.countJobsByState();
      } catch {
        return; // a store that cannot be read shows no jobs; /readyz says why
      }
      for (const [state, n] of Object.entries(counts)) this.set({ state }, n);
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

  // The usage each job had at its last change seen here, to count only what it added since.
  const seen = new Map<string, UsageTotals>();
  const jobObserver: JobObserver = {
    changed(change: JobChange) {
      const now = change.snapshot.context.usage;
      const before = seen.get(change.jobId) ?? usageBefore(change, store);
      for (const [kind, key] of Object.entries(usageKeys) as [TokenKind, keyof UsageTotals][]) {
        const added = now[key] - before[key];
        if (added > 0) tokens.inc({ kind }, added);
      }
      if (change.snapshot.status === 'done') seen.delete(change.jobId);
      else seen.set(change.jobId, { ...now });
    },
  };

  return {
    registry,
    observeEffect: (src, durationMs, ok) =>
      effects.observe({ effect: src, result: ok ? 'ok' : 'error' }, durationMs / 1000),
    countDelivery: (outcome) => deliveries.inc({ outcome }),
    watchStore: (s) => {
      store = s;
    },
    jobObserver,
  };
}

/**
 * A job first seen mid-way (resumed after a restart) spent tokens in an earlier process; count only
 * what its latest event added, which the log keeps in that event's metadata.
 */
function usageBefore(change: JobChange, store: EventStore | null): UsageTotals {
  const now = change.snapshot.context.usage;
  if (change.version <= 1) return zeroUsage;
  if (!store) return now;
  const t = store.readStream(change.jobId, { fromVersion: change.version, toVersion: change.version })[0]
    ?.meta.tokens;
  if (!t) return now;
  return {
    inputTokens: now.inputTokens - t.input,
    outputTokens: now.outputTokens - t.output,
    cacheReadTokens: now.cacheReadTokens - t.cacheRead,
    cacheWriteTokens: now.cacheWriteTokens - t.cacheWrite,
    costUsd: now.costUsd,
  };
}
