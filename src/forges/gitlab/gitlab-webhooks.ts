import { z } from 'zod';
import { BootyError } from '../../errors.js';
import { header, requiredHeader } from '../delivery-headers.js';
import type { ForgeWebhooks } from '../forge.js';
import { classifyGitLab } from './classify.js';
import { checkToken } from './webhook-token.js';

// A GitLab delivery read: the secret token first, then the headers that name it (the event, and
// X-Gitlab-Event-UUID, which a resend keeps: the dedupe key), then the body, then what it asks
// (classify.ts). Each refusal is booty's error, named.

/** GitLab's own cap on what it sends is smaller; this is the most booty reads. */
export const MAX_GITLAB_WEBHOOK_BYTES = 25 * 1024 * 1024;

const DeliveryId = z.string().trim().min(1).max(200);
const EventName = z.string().regex(/^[A-Za-z ]{1,64} Hook$/, 'is not a GitLab event name (… Hook)');

export const gitlabWebhooks: ForgeWebhooks = {
  maxBytes: MAX_GITLAB_WEBHOOK_BYTES,
  idHeader: 'x-gitlab-event-uuid',
  eventHeader: 'x-gitlab-event',
  async read(raw, config) {
    const check = checkToken(header(raw, 'x-gitlab-token'), config.secrets);
    if (!check.ok) throw new BootyError('BOOTY_E_WEBHOOK_TOKEN', { reason: check.reason });
    const id = requiredHeader(raw, 'x-gitlab-event-uuid', DeliveryId);
    const event = requiredHeader(raw, 'x-gitlab-event', EventName);
    let payload: unknown;
    try {
      payload = JSON.parse(raw.body.toString('utf8'));
    } catch (err) {
      throw new BootyError('BOOTY_E_WEBHOOK_NOT_JSON', { reason: (err as Error).message });
    }
    const { action, intent } = classifyGitLab(event, payload, config);
    return { delivery: { id, event, action }, intent, installationId: null };
  },
};
