import perfHooks, { createHistogram, type IntervalHistogram } from 'node:perf_hooks';

// prom-client's default metrics sample the event loop's delay with a timer every 10 ms, for good:
// a hundred wake-ups a second, which was most of what an idle worker spent (a fifth of a
// CPU-second a minute on a loaded machine). Here its histogram samples while booty has work (a
// stream of deliveries, a job's step, a job running) and for QUIET_MS after, and at start; a
// quiet booty has no delay to measure. prom-client reads the samples at each scrape, as before; a
// scrape of a quiet spell reads the loop on time (its delay is the timer's own period, as node
// would report).

const QUIET_MS = 10_000;
// Deliveries closer together than this are a stream worth sampling; one alone is not (brief()).
const STREAM_MS = 1_000;

/**
 * What prom-client reads of its event-loop monitor (min, max, mean, stddev, percentiles, in ns):
 * as node's monitorEventLoopDelay records, the time between ticks of a timer every `resolution`
 * ms, but ticking only while there is work.
 */
export class WorkSampledDelay {
  private readonly samples = createHistogram();
  private ticker: NodeJS.Timeout | null = null;
  private last = 0n;
  private quiet: NodeJS.Timeout | null = null;
  private lastBrief = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly resolutionMs: number,
    /** Jobs running here: while any runs, booty is not quiet. */
    private readonly running: () => number,
  ) {}

  /** prom-client enables it once, as it is made: booty is starting, which is work. */
  enable(): boolean {
    this.work();
    return true;
  }

  /** There is work: sample now, and until QUIET_MS after the last work. */
  work() {
    if (!this.ticker) {
      this.last = process.hrtime.bigint();
      this.ticker = setInterval(() => this.tick(), this.resolutionMs);
      this.ticker.unref();
    }
    if (this.quiet) this.quiet.refresh();
    else {
      this.quiet = setTimeout(() => this.settle(), QUIET_MS);
      this.quiet.unref();
    }
  }

  /**
   * A moment's work, such as one webhook delivery: sampled only when such moments come in a
   * stream. A delivery alone is a millisecond of work, and sampling the 10 s after it costs a
   * thousand wake-ups (about 0.17 CPU-s on a loaded machine); an App's sparse deliveries would
   * keep the sampler on for good.
   */
  brief() {
    const now = Date.now();
    if (now - this.lastBrief < STREAM_MS) this.work();
    this.lastBrief = now;
  }

  /** Whether it samples now. */
  get sampling(): boolean {
    return this.ticker !== null;
  }

  private tick() {
    const now = process.hrtime.bigint();
    this.samples.record(now - this.last);
    this.last = now;
  }

  private settle() {
    this.quiet = null;
    if (this.running() > 0) return this.work();
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
  }

  /** prom-client reads the samples at each scrape, then starts them afresh. */
  reset() {
    this.samples.reset();
  }

  /** The samples since the last scrape; for a quiet spell, one tick on time, as node would have seen. */
  private read() {
    if (this.samples.count === 0) this.samples.record(this.resolutionMs * 1e6);
    return this.samples;
  }

  get min() {
    return this.read().min;
  }
  get max() {
    return this.read().max;
  }
  get mean() {
    return this.read().mean;
  }
  get stddev() {
    return this.read().stddev;
  }
  percentile(p: number) {
    return this.read().percentile(p);
  }
}

/**
 * Runs prom-client's `collect` (collectDefaultMetrics) with its event-loop monitor sampling while
 * there is work; returns that monitor, or null if prom-client made none.
 */
export function withWorkSampledDelay(collect: () => void, running: () => number): WorkSampledDelay | null {
  let made: WorkSampledDelay | null = null;
  const monitor = perfHooks.monitorEventLoopDelay;
  perfHooks.monitorEventLoopDelay = (options) => {
    made = new WorkSampledDelay(options?.resolution ?? 10, running);
    return made as unknown as IntervalHistogram;
  };
  try {
    collect();
  } finally {
    perfHooks.monitorEventLoopDelay = monitor;
  }
  return made;
}
