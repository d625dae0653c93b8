import type { ForgeWebhooks } from '../forge.js';
import { MAX_WEBHOOK_BYTES } from './webhook-body.js';

// GitHub's webhooks as the route meets them. The reader (signature, headers, body, and what the
// delivery asks: read-delivery.ts, classify.ts) loads with the first delivery, not at start-up.

export const githubWebhooks: ForgeWebhooks = {
  maxBytes: MAX_WEBHOOK_BYTES,
  idHeader: 'x-github-delivery',
  eventHeader: 'x-github-event',
  read: async (raw, config) => (await import('./read-delivery.js')).readDelivery(raw, config),
};
