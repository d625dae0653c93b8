import { z } from 'zod';
import { BootyError } from '../../errors.js';
import { header, requiredHeader } from '../delivery-headers.js';
import type { ForgeWebhooks } from '../forge.js';
import { classifyDelivery } from './classify.js';
import { checkSignature } from './signature.js';
import { decodeWebhookBody } from './webhook-body.js';

// A GitHub delivery read: the signature over the raw bytes first, then the headers that name it,
// then the body, then what it asks (classify.ts). Each refusal is booty's error, named.

const DeliveryId = z.string().trim().min(1).max(200);
const EventName = z.string().regex(/^[a-z_]{1,64}$/, 'is not a GitHub event name');

export const readDelivery: ForgeWebhooks['read'] = async (raw, config) => {
  const text = raw.body.toString('utf8');
  const check = await checkSignature({
    body: text,
    signature: header(raw, 'x-hub-signature-256'),
    secrets: config.secrets,
  });
  if (!check.ok) throw new BootyError('BOOTY_E_WEBHOOK_SIGNATURE', { reason: check.reason });
  const id = requiredHeader(raw, 'x-github-delivery', DeliveryId);
  const event = requiredHeader(raw, 'x-github-event', EventName);
  const payload = decodeWebhookBody(text, header(raw, 'content-type'));
  const { action, intent } = classifyDelivery(event, payload, config);
  return { delivery: { id, event, action }, intent, installationId: installationOf(payload) };
};

const installationOf = (payload: unknown): number | null => {
  const id = (payload as { installation?: { id?: unknown } } | null)?.installation?.id;
  return typeof id === 'number' ? id : null;
};
