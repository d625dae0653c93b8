import type { Octokit } from '@octokit/rest';
import { z } from 'zod';
import type { GitHubAuth } from './auth.js';

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

export function hookDeliveries(options: {
  apiUrl: string;
  auth: Extract<GitHubAuth, { kind: 'app' }>;
}): HookDeliveries {
  const stopping = new AbortController();
  // octokit and the App auth load with the first look, as the job clients load theirs.
  let made: Promise<Octokit> | null = null;
  const octokit = () => {
    made ??= (async () => {
      const [{ Octokit }, { createAppAuth }] = await Promise.all([
        import('@octokit/rest'),
        import('@octokit/auth-app'),
      ]);
      return new Octokit({
        baseUrl: options.apiUrl.replace(/\/+$/, ''),
        userAgent: 'booty',
        authStrategy: createAppAuth,
        auth: { appId: options.auth.appId, privateKey: options.auth.privateKey },
        request: { signal: stopping.signal },
        log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
      });
    })().catch((err: unknown) => {
      made = null;
      throw err;
    });
    return made;
  };

  return {
    async listSince(since) {
      const gh = await octokit();
      const found: HookDelivery[] = [];
      // Pages come newest first, through the Link header's cursor: stop at the first page that
      // reaches back past `since`.
      for await (const page of gh.paginate.iterator('GET /app/hook/deliveries', { per_page: PER_PAGE })) {
        const items = z.array(HookDelivery).parse(page.data);
        const recent = items.filter((d) => Date.parse(d.delivered_at) >= since);
        found.push(...recent);
        if (recent.length < items.length) break;
      }
      return found;
    },
    async redeliver(attemptId) {
      const gh = await octokit();
      await gh.request('POST /app/hook/deliveries/{delivery_id}/attempts', { delivery_id: attemptId });
    },
    stop: () => stopping.abort(),
  };
}
