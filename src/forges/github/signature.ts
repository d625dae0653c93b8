import { verify } from '@octokit/webhooks-methods';

// GitHub signs the exact bytes it sends with HMAC-SHA256. The check runs over the raw body, before
// anything parses it, and accepts any configured secret so a rotation drops no delivery.

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

const shape = /^sha256=[0-9a-f]{64}$/;

export async function checkSignature(input: {
  /** The raw body decoded as UTF-8, which is what GitHub signs. */
  body: string;
  signature: string | undefined;
  secrets: readonly string[];
}): Promise<SignatureCheck> {
  const { body, signature, secrets } = input;
  if (!signature) return { ok: false, reason: 'is missing' };
  if (!shape.test(signature)) return { ok: false, reason: 'is not of the form sha256=<64 hex digits>' };
  // verify() refuses an empty payload; GitHub never sends one.
  if (body.length === 0) return { ok: false, reason: 'cannot sign an empty body' };
  for (const secret of secrets) {
    if (await verify(secret, body, signature)) return { ok: true };
  }
  return { ok: false, reason: 'does not match the body' };
}
