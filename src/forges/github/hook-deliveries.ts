import { z } from 'zod';
import type { DeliveryHistory, SentDelivery } from '../forge.js';
import { mayActOn } from './classify-conversation.js';
import type { GitHubClients } from './clients.js';
import { githubMessage, httpStatus } from './github-errors.js';

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

const PER_PAGE = 100;

const sent = (d: HookDelivery): SentDelivery => ({
  attempt: d.id,
  id: d.guid,
  at: Date.parse(d.delivered_at),
  statusCode: d.status_code,
  status: d.status,
  event: d.event,
  action: d.action,
});

export function hookDeliveries(clients: Pick<GitHubClients, 'forApp'>): DeliveryHistory {
  // Booty's own client for the App, so these calls are paced and wait out GitHub's rate limits as
  // every other call does; a look stopped at shutdown aborts the request under way.
  const stopping = new AbortController();
  const request = { signal: stopping.signal };
  return {
    async list(since) {
      const gh = await clients.forApp();
      const found: SentDelivery[] = [];
      // Pages come newest first, through the Link header's cursor: stop at the first page that
      // reaches back past `since`.
      const params = { per_page: PER_PAGE, request } as { per_page: number };
      const pages = gh.paginate.iterator('GET /app/hook/deliveries', params);
      for await (const page of pages) {
        const items = z.array(HookDelivery).parse(page.data).map(sent);
        const recent = items.filter((d) => d.at >= since);
        found.push(...recent);
        if (recent.length < items.length) break;
      }
      return found;
    },
    async redeliver(attempt) {
      const gh = await clients.forApp();
      await gh.request('POST /app/hook/deliveries/{delivery_id}/attempts', { delivery_id: attempt, request });
    },
    mayGiveWork: mayActOn,
    refusedAlone(err) {
      // Gone (404) or refused (422) is that delivery's; a rate limit or an outage is every one's.
      const status = httpStatus(err);
      return status !== null && status >= 400 && status < 500 && status !== 403 && status !== 429;
    },
    explain: whatToDo,
    stop: () => stopping.abort(),
  };
}

/** A failed look in one line, with what to do; booty tries again at the next look either way. */
function whatToDo(err: unknown): string {
  const status = httpStatus(err);
  const again = 'booty tries again at the next look';
  if (status === 429 || (status === 403 && /rate limit/i.test(githubMessage(err))))
    return `GitHub rate-limited the look at missed webhook deliveries (${status}: ${githubMessage(err)}); ${again}`;
  if (status === 401)
    return `GitHub refused the App's JWT listing its webhook deliveries (401): check GITHUB_APP_ID and the private key; ${again}`;
  if (status === 403 || status === 404)
    return `GitHub would not list the App's webhook deliveries (${status}: ${githubMessage(err)}): check that GITHUB_APP_ID and its key are the App whose webhook points at booty, and that the App has a webhook; ${again}`;
  if (status === null) return `looking for missed webhook deliveries failed: ${githubMessage(err)}; ${again}`;
  if (status >= 500)
    return `GitHub's webhook delivery API did not answer (${status}: ${githubMessage(err)}); ${again}`;
  return `looking for missed webhook deliveries failed (${status}: ${githubMessage(err)}); ${again}`;
}
