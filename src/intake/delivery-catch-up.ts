import type { DeliveryHistory, SentDelivery } from '../forges/forge.js';
import type { GatewayMetrics } from '../gateway/metrics.js';
import type { Logger } from '../log.js';
import type { EventStore } from '../store/event-store.js';
import { missedDeliveries } from './missed-deliveries.js';

// A forge sends a webhook once. One that failed while booty was down (a deploy, a crash, a 503 at
// shutdown) would leave a parked job waiting for ever on the review or CI result it carried. So
// `serve`, where its forge keeps a log of what it sent (a GitHub App's deliveries), looks at it at
// start (once the route listens, as the redeliveries come through it) and every
// BOOTY_REDELIVER_MINUTES, and asks the forge to send again each delivery it never recorded that
// failed as a down booty fails (missed-deliveries.ts). A redelivery keeps its id, so the dedupe by
// delivery id holds.
//
// Many workers on one database share a mark in the store: a periodic look is taken by one worker
// per period, and each looks back to where the last look that went through began. A worker's start
// looks anyway (a start is rare, and it is when deliveries were missed); two looks at once may both
// ask for one redelivery, and the second copy is answered as a duplicate.

/** How long GitHub keeps deliveries: the furthest a look goes back. */
const KEPT_MS = 3 * 24 * 60 * 60 * 1000;
/**
 * How far before the last look the next one starts: GitHub's clock against this one's, and a
 * delivery that failed while that look was listing.
 */
const OVERLAP_MS = 5 * 60 * 1000;
/**
 * Redeliveries asked per delivery by this process: one that booty answers with a 5xx each time (a
 * bug, not an outage) would otherwise be asked for at every look for the three days GitHub keeps it.
 */
const MAX_ASKS = 3;

export type LookResult =
  | { looked: false }
  | { looked: true; listed: number; redelivered: number }
  | { looked: true; error: string };

export interface DeliveryCatchUp {
  /** The look at start. */
  first: Promise<LookResult>;
  /** Looks now, unless another worker took a look within `gapMs` (0: look anyway). Never rejects. */
  look(gapMs?: number): Promise<LookResult>;
  /** Stops the timer and any look under way. */
  stop(): Promise<void>;
}

export interface CatchUpDeps {
  /** BOOTY_REDELIVER_MINUTES: how often to look; 0 never. */
  minutes: number;
  /** The forge's log of what it sent; null when it keeps none booty can read (a token, not an App). */
  history: DeliveryHistory | null;
  store: EventStore;
  metrics: GatewayMetrics;
  log: Logger;
  clock?: () => number;
}

/** Starts looking (the first look at once); null, having said why once, when there is nothing to do. */
export function startDeliveryCatchUp(deps: CatchUpDeps): DeliveryCatchUp | null {
  const log = deps.log.child({ component: 'redeliveries' });
  const { history, minutes } = deps;
  if (!history) {
    log.info(
      'missed webhook deliveries cannot be caught up without a GitHub App (GitHub lists deliveries only to an App): a delivery that fails while booty is down is lost unless redelivered from the webhook settings',
    );
    return null;
  }
  if (minutes === 0) {
    log.info('BOOTY_REDELIVER_MINUTES=0: missed webhook deliveries are not caught up');
    return null;
  }
  const catchUp = deliveryCatchUp({ ...deps, log, history });
  const periodMs = minutes * 60_000;
  const first = catchUp.look(0);
  // The gap is a little under the period, so that with many workers one of them looks each period.
  const timer = setInterval(() => void catchUp.look(periodMs * 0.9), periodMs);
  timer.unref();
  return {
    first,
    look: catchUp.look,
    stop: () => {
      clearInterval(timer);
      return catchUp.stop();
    },
  };
}

/** The look itself, over any client: startDeliveryCatchUp's, or a test's. */
export function deliveryCatchUp(
  deps: Omit<CatchUpDeps, 'minutes' | 'history'> & { history: DeliveryHistory },
): Omit<DeliveryCatchUp, 'first'> {
  const { store, metrics, log, history } = deps;
  const clock = deps.clock ?? Date.now;
  let running: Promise<LookResult> | null = null;
  let stopped = false;
  /** The failure last logged, so a failure that repeats look after look is logged once. */
  let failing: string | null = null;
  /** How often this process has asked for each delivery. */
  const asked = new Map<string, number>();

  async function lookOnce(gapMs: number): Promise<LookResult> {
    const startedAt = clock();
    try {
      const turn = await store.takeDeliveryLook(startedAt, gapMs);
      if (!turn) return { looked: false };
      const since = Math.max(startedAt - KEPT_MS, (turn.lastLook ?? 0) - OVERLAP_MS);
      const listed = await history.list(since);
      const unknown = new Set(await store.unknownDeliveries(listed.map((d) => d.id)));
      // Only what could give a job work: a backlog after an outage is mostly CI noise.
      const missed = missedDeliveries(listed, unknown).filter((d) => history.mayGiveWork(d.event, d.action));
      let redelivered = 0;
      for (const d of missed) {
        if (stopped) break;
        const times = asked.get(d.id) ?? 0;
        if (times >= MAX_ASKS) continue;
        // A refusal of this one delivery (gone, 404; refused, 422) skips it; a rate limit or an
        // outage ends the look, whose span the next look covers again.
        if (!(await redeliverOne(d))) continue;
        asked.set(d.id, times + 1);
        if (times + 1 === MAX_ASKS)
          log.warn(
            { deliveryId: d.id, event: d.event, action: d.action },
            `asked for a delivery the ${MAX_ASKS}rd time, and the last: booty failed it each time it came; see the log for why`,
          );
        redelivered += 1;
        metrics.countRedelivery();
        log.info(
          { deliveryId: d.id, event: d.event, action: d.action, failedWith: d.statusCode || d.status },
          'asked the forge to send a missed webhook delivery again',
        );
      }
      // The mark is on the forge's clock, as the next look compares it with the forge's times: the
      // newest delivery listed (a look that listed nothing leaves it where it was).
      // (A reduce, not a spread: three days of a busy App's deliveries is more arguments than a call takes.)
      const newest = listed.reduce((mark, d) => Math.max(mark, d.at), since);
      if (!stopped) await store.finishDeliveryLook(newest);
      metrics.countDeliveryLook('ok');
      if (failing) log.info('the look at missed webhook deliveries works again');
      failing = null;
      // A look that found nothing is the common case: it shows at debug only.
      (redelivered > 0 ? log.info.bind(log) : log.debug.bind(log))(
        { since: new Date(since).toISOString(), listed: listed.length, redelivered },
        'looked for missed webhook deliveries',
      );
      return { looked: true, listed: listed.length, redelivered };
    } catch (err) {
      if (stopped) return { looked: true, error: 'stopped' };
      metrics.countDeliveryLook('failed');
      const reason = history.explain(err);
      if (reason !== failing) log.warn(reason);
      failing = reason;
      return { looked: true, error: reason };
    }
  }

  /** Asks for one delivery; false when the forge refused that delivery alone. */
  async function redeliverOne(d: SentDelivery): Promise<boolean> {
    try {
      await history.redeliver(d.attempt);
      return true;
    } catch (err) {
      if (!history.refusedAlone(err)) throw err;
      log.warn(
        { deliveryId: d.id, err: history.explain(err) },
        'the forge would not send this delivery again',
      );
      return false;
    }
  }

  return {
    look(gapMs = 0) {
      if (stopped) return Promise.resolve({ looked: false });
      // One look at a time here: a timer that fires during a slow look waits for the next period.
      running ??= lookOnce(gapMs).finally(() => {
        running = null;
      });
      return running;
    },
    async stop() {
      stopped = true;
      history.stop();
      await running;
    },
  };
}
