import type { z } from 'zod';
import { BootyError } from '../errors.js';
import type { RawDelivery } from './forge.js';

// A delivery's headers as both forges' readers take them: the first value of a repeated header,
// and a required one checked against its schema, each refusal naming the header.

export function header(raw: RawDelivery, name: string): string | undefined {
  const value = raw.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function requiredHeader(raw: RawDelivery, name: string, schema: z.ZodType<string>): string {
  const value = header(raw, name);
  if (value === undefined)
    throw new BootyError('BOOTY_E_WEBHOOK_HEADER', { header: name, reason: 'is missing' });
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new BootyError('BOOTY_E_WEBHOOK_HEADER', {
      header: name,
      reason: `is invalid: ${parsed.error.issues[0]!.message}`,
    });
  }
  return parsed.data;
}
