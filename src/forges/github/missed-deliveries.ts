import type { HookDelivery } from './hook-deliveries.js';

// Which of the App's listed deliveries booty asks GitHub to send again: a delivery booty never
// recorded whose every attempt failed the way a stopped or failing booty fails (no response, or a
// 5xx), once, by its newest attempt. A delivery that reached booty once is recorded, or answered
// (a duplicate's 200); a 4xx (a bad signature, a header booty refused) would fail the same again.

/** Whether GitHub would get a different answer from a booty that is up: no response, or a 5xx. */
export const failedAsIfDown = (d: Pick<HookDelivery, 'status_code'>) =>
  d.status_code === 0 || d.status_code >= 500;

/**
 * The newest attempt of each delivery to redeliver, oldest delivery first: asked one at a time in
 * that order, they usually come in the order they happened (labeled before closed). `unknown`:
 * GUIDs booty never recorded.
 */
export function missedDeliveries(listed: HookDelivery[], unknown: ReadonlySet<string>): HookDelivery[] {
  const byGuid = new Map<string, HookDelivery[]>();
  for (const d of listed) {
    if (!unknown.has(d.guid)) continue;
    const attempts = byGuid.get(d.guid) ?? [];
    attempts.push(d);
    byGuid.set(d.guid, attempts);
  }
  // Each delivery by its newest attempt (the one a redelivery names), ordered by its first.
  return [...byGuid.values()]
    .filter((attempts) => attempts.every(failedAsIfDown))
    .map((attempts) => ({
      first: attempts.reduce((oldest, d) => (newer(oldest, d) ? d : oldest)),
      newest: attempts.reduce((newest, d) => (newer(d, newest) ? d : newest)),
    }))
    .sort((a, b) => (newer(a.first, b.first) ? 1 : -1))
    .map((d) => d.newest);
}

const newer = (a: HookDelivery, b: HookDelivery) => {
  const at = Date.parse(a.delivered_at) - Date.parse(b.delivered_at);
  return at !== 0 ? at > 0 : a.id > b.id;
};
