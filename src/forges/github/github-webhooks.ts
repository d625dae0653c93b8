import type { ForgeWebhooks } from '../forge.js';
import { MAX_WEBHOOK_BYTES } from './webhook-body.js';

// GitHub's webhooks as the route meets them. The reader (signature, headers, body, and what the
// delivery asks: read-delivery.ts, classify.ts) loads with the first delivery, not at start-up,
// and is kept: an import() per delivery asks the module loader every time (a hook's round trip
// to its thread under tsx), which took the route's throughput below half of a bare receiver's.
let reader: Promise<typeof import('./read-delivery.js')> | null = null;

async function readDelivery(...args: Parameters<ForgeWebhooks['read']>) {
  reader ??= import('./read-delivery.js');
  return (await reader).readDelivery(...args);
}

export const githubWebhooks: ForgeWebhooks = {
  maxBytes: MAX_WEBHOOK_BYTES,
  idHeader: 'x-github-delivery',
  eventHeader: 'x-github-event',
  read: readDelivery,
};
