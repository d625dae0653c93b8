import { z } from 'zod';
import type { GitHubClients } from './clients.js';

// The App webhook's recent deliveries, through GitHub's delivery API, with the App's own JWT (no
// installation, no permission beyond the App itself): listed newest first back to a time, and one
// redelivered. Only an App has this API; a token's repository webhooks are another's to manage.

/** What booty reads of one listed attempt (GitHub's hook-delivery-item). */
export const HookDelivery = z.object({
  /** The attempt's id: what a redelivery names. */
  id: z.number(),
  /** The delivery's GUID, the X-GitHub-Delivery every attempt and redelivery of it carries. */
  guid: z.string(),
  delivered_at: z.string(),
  redelivery: z.boolean(),
  status: z.string(),
  /** 0 when the hook gave no HTTP response (refused, reset, timed out). */
  status_code: z.number(),
  event: z.string(),
  action: z.string().nullable(),
});
export type HookDelivery = z.infer<typeof HookDelivery>;

export interface HookDeliveries {
  /** Every attempt delivered at or after `since` (epoch ms), newest first. */
  listSince(since: number): Promise<HookDelivery[]>;
  /** Asks GitHub to send an attempt's delivery again (202: queued). */
  redeliver(attemptId: number): Promise<void>;
  /** Shutdown: aborts a request under way. */
  stop(): void;
}

const PER_PAGE = 100;

export function hookDeliveries(clients: Pick<GitHubClients, 'forApp'>): HookDeliveries {
  // Booty's own client for the App, so these calls are paced and wait out GitHub's rate limits as
  // every other call does; a look stopped at shutdown aborts the request under way.
  const stopping = new AbortController();
  const request = { signal: stopping.signal };
  return {
    async listSince(since) {
      const gh = await clients.forApp();
      const found: HookDelivery[] = [];
      // Pages come newest first, through the Link header's cursor: stop at the first page that
      // reaches back past `since`.
      const params = { per_page: PER_PAGE, request } as { per_page: number };
      const pages = gh.paginate.iterator('GET /app/hook/deliveries', params);
      for await (const page of pages) {
        const items = z.array(HookDelivery).parse(page.data);
        const recent = items.filter((d) => Date.parse(d.delivered_at) >= since);
        found.push(...recent);
        if (recent.length < items.length) break;
      }
      return found;
    },
    async redeliver(attemptId) {
      const gh = await clients.forApp();
      await gh.request('POST /app/hook/deliveries/{delivery_id}/attempts', {
        delivery_id: attemptId,
        request,
      });
    },
    stop: () => stopping.abort(),
  };
}
