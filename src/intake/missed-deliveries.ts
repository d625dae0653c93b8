import type { SentDelivery } from '../forges/forge.js';

// Which of the forge's listed deliveries booty asks it to send again: a delivery booty never
// recorded whose every attempt failed the way a stopped or failing booty fails (no response, or a
// 5xx), once, by its newest attempt. A delivery that reached booty once is recorded, or answered
// (a duplicate's 200); a 4xx (a bad signature, a header booty refused) would fail the same again.

/** Whether the forge would get a different answer from a booty that is up: no response, or a 5xx. */
export const failedAsIfDown = (d: Pick<SentDelivery, 'statusCode'>) =>
  d.statusCode === 0 || d.statusCode >= 500;

/**
 * The newest attempt of each delivery to redeliver, oldest delivery first: asked one at a time in
 * that order, they usually come in the order they happened (labeled before closed). `unknown`:
 * delivery ids booty never recorded.
 */
export function missedDeliveries(listed: SentDelivery[], unknown: ReadonlySet<string>): SentDelivery[] {
  const byId = new Map<string, SentDelivery[]>();
  for (const d of listed) {
    if (!unknown.has(d.id)) continue;
    const attempts = byId.get(d.id) ?? [];
    attempts.push(d);
    byId.set(d.id, attempts);
  }
  // Each delivery by its newest attempt (the one a redelivery names), ordered by its first.
  return [...byId.values()]
    .filter((attempts) => attempts.every(failedAsIfDown))
    .map((attempts) => ({
      first: attempts.reduce((oldest, d) => (newer(oldest, d) ? d : oldest)),
      newest: attempts.reduce((newest, d) => (newer(d, newest) ? d : newest)),
    }))
    .sort((a, b) => (newer(a.first, b.first) ? 1 : -1))
    .map((d) => d.newest);
}

const newer = (a: SentDelivery, b: SentDelivery) => (a.at !== b.at ? a.at > b.at : a.attempt > b.attempt);
