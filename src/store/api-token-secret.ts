import { createHash, randomBytes } from 'node:crypto';

// A jobs API token: `booty_<id>_<secret>`. The id is public (list and revoke name it); the secret
// is 32 random bytes. The store keeps only the whole token's SHA-256: with that much randomness a
// fast hash is enough, and no salt is needed for a value nobody chose.

export function newApiTokenSecret(): { id: string; token: string; hash: string } {
  const id = randomBytes(4).toString('hex');
  const token = `booty_${id}_${randomBytes(32).toString('base64url')}`;
  return { id, token, hash: apiTokenHash(token) };
}

export const apiTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
