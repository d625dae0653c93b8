import { BootyError } from '../../errors.js';

// GitHub posts a delivery as application/json, or as application/x-www-form-urlencoded with the
// JSON in a `payload` field. Either way the signature covers the raw bytes, so decoding happens
// only after the signature check.

/** GitHub caps a delivery at 25 MB. */
export const MAX_WEBHOOK_BYTES = 25 * 1024 * 1024;

export function decodeWebhookBody(text: string, contentType: string | undefined): unknown {
  let json = text;
  if (contentType?.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    const payload = new URLSearchParams(text).get('payload');
    if (payload === null) {
      throw new BootyError('BOOTY_E_WEBHOOK_NOT_JSON', { reason: 'the form has no payload field' });
    }
    json = payload;
  }
  try {
    return JSON.parse(json);
  } catch (err) {
    throw new BootyError('BOOTY_E_WEBHOOK_NOT_JSON', { reason: (err as Error).message });
  }
}
