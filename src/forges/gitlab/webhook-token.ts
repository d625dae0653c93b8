import { hash, timingSafeEqual } from 'node:crypto';

// GitLab sends the webhook's secret token as it is, in X-Gitlab-Token; nothing signs the body. The
// token is compared in constant time (both sides hashed first, so their lengths never show), and
// any configured secret is accepted, so a rotation drops no delivery.

export type TokenCheck = { ok: true } | { ok: false; reason: string };

// One-shot: half the cost of a Hash object made, fed and finished for every delivery.
const digest = (text: string) => hash('sha256', text, 'buffer');

/** The secrets' digests, made once per list: hashing them again was half a delivery's check. */
const digestsOf = new WeakMap<readonly string[], Buffer[]>();

export function checkToken(token: string | undefined, secrets: readonly string[]): TokenCheck {
  if (token === undefined || token === '') return { ok: false, reason: 'is missing' };
  const given = digest(token);
  let kept = digestsOf.get(secrets);
  if (!kept) {
    kept = secrets.map(digest);
    digestsOf.set(secrets, kept);
  }
  // Every secret is compared, whichever matches: the time taken says nothing of which one did.
  let matched = false;
  for (const secret of kept) matched = timingSafeEqual(given, secret) || matched;
  return matched ? { ok: true } : { ok: false, reason: 'does not match' };
}
