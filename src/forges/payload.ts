import type { z } from 'zod';
import { BootyError } from '../errors.js';

// Webhook payloads are checked only in the parts booty reads, so the forge adding fields never breaks
// a delivery; a part that is missing or malformed is named in the error.

export function parse<T extends z.ZodType>(schema: T, event: string, payload: unknown): z.infer<T> {
  const parsed = schema.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalid(event, `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}

export const invalid = (event: string, reason: string) =>
  new BootyError('BOOTY_E_WEBHOOK_PAYLOAD', { event, reason });
