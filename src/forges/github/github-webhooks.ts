import { onFirstUse } from '../../on-first-use.js';
import type { ForgeWebhooks } from '../forge.js';
import { MAX_WEBHOOK_BYTES } from './webhook-body.js';

// GitHub's webhooks as the route meets them. The reader (signature, headers, body, and what the
// delivery asks: read-delivery.ts, classify.ts) loads with the first delivery, not at start-up,
// and is kept: an import() per delivery asks the module loader every time (a hook's round trip
// to its thread under tsx), which took the route's throughput below half of a bare receiver's.
const reader = onFirstUse(() => import('./read-delivery.js'));

export const githubWebhooks: ForgeWebhooks = {
  maxBytes: MAX_WEBHOOK_BYTES,
  idHeader: 'x-github-delivery',
  eventHeader: 'x-github-event',
  read: async (raw, config) => (await reader()).readDelivery(raw, config),
};
