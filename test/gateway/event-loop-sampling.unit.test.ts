import { collectDefaultMetrics, Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WorkSampledDelay, withWorkSampledDelay } from '../../src/gateway/event-loop-sampling.js';
import { createMetrics } from '../../src/gateway/metrics.js';

// The event loop's delay is sampled while booty has work, and not while it is quiet; the metrics
// are prom-client's own, under the same names.

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

const names = async (registry: Registry) =>
  [...(await registry.metrics()).matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!).sort();

describe('the event loop delay, sampled while there is work', () => {
  it('samples from the start, stops once quiet, and starts again with work', () => {
    const delay = new WorkSampledDelay(10, () => 0);
    delay.enable();
    expect(delay.sampling).toBe(true);
    vi.advanceTimersByTime(9_000);
    delay.work(); // a delivery: quiet 10 s from now
    vi.advanceTimersByTime(9_000);
    expect(delay.sampling).toBe(true);
    vi.advanceTimersByTime(1_001);
    expect(delay.sampling).toBe(false);
    // No timer of its own is left while quiet.
    expect(vi.getTimerCount()).toBe(0);
    delay.work();
    expect(delay.sampling).toBe(true);
  });

  it('samples a stream of deliveries, not one alone', () => {
    const delay = new WorkSampledDelay(10, () => 0);
    delay.enable();
    vi.advanceTimersByTime(10_001);
    expect(delay.sampling).toBe(false);
    // One delivery every few seconds, as an App's background events come: never sampled.
    for (let i = 0; i < 5; i++) {
      delay.brief();
      expect(delay.sampling).toBe(false);
      vi.advanceTimersByTime(3_000);
    }
    expect(vi.getTimerCount()).toBe(0);
    // Two within a second: a stream, sampled until quiet.
    delay.brief();
    vi.advanceTimersByTime(500);
    delay.brief();
    expect(delay.sampling).toBe(true);
    vi.advanceTimersByTime(10_001);
    expect(delay.sampling).toBe(false);
  });

  it('keeps sampling while a job runs, quiet or not', () => {
    let running = 1;
    const delay = new WorkSampledDelay(10, () => running);
    delay.enable();
    vi.advanceTimersByTime(60_000);
    expect(delay.sampling).toBe(true);
    running = 0;
    vi.advanceTimersByTime(10_001);
    expect(delay.sampling).toBe(false);
  });

  it('reads a quiet spell as the loop on time: one tick of its period', () => {
    const delay = new WorkSampledDelay(10, () => 0);
    delay.reset();
    // To the histogram's precision: three significant digits.
    for (const ns of [delay.min, delay.max, delay.mean, delay.percentile(99)])
      expect(Math.abs(ns - 10e6)).toBeLessThan(10e6 * 0.001);
  });

  it('gives prom-client its monitor, and leaves node’s own as it was', async () => {
    const registry = new Registry();
    const before = (await import('node:perf_hooks')).monitorEventLoopDelay;
    const delay = withWorkSampledDelay(
      () => collectDefaultMetrics({ register: registry }),
      () => 0,
    );
    expect(delay).toBeInstanceOf(WorkSampledDelay);
    expect(delay!.sampling).toBe(true);
    expect((await import('node:perf_hooks')).monitorEventLoopDelay).toBe(before);
  });

  it('exports the same default metrics as prom-client does', async () => {
    const own = new Registry();
    collectDefaultMetrics({ register: own, prefix: 'booty_' });
    const booty = createMetrics().registry;
    const ours = (await names(booty)).filter(
      (n) => n.startsWith('booty_nodejs_') || n.startsWith('booty_process_'),
    );
    const theirs = (await names(own)).filter(
      (n) => n.startsWith('booty_nodejs_') || n.startsWith('booty_process_'),
    );
    expect(ours).toEqual(theirs);
    expect(ours).toContain('booty_nodejs_eventloop_lag_p99_seconds');
  });
});
