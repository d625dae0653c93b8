import fs from 'node:fs';
import type { Env } from '../env.js';
import { BootyError } from '../errors.js';

// How booty proves who it is to GitHub: a token, or a GitHub App whose installation tokens are
// minted per job from the delivery's installation id. The same credential serves git push.

export type GitHubAuth =
  | { kind: 'token'; token: string }
  | {
      kind: 'app';
      appId: string;
      /** PEM, PKCS#1 as GitHub issues it, or PKCS#8. */
      privateKey: string;
    };

export function authFromEnv(
  env: Pick<Env, 'GITHUB_TOKEN' | 'GITHUB_APP_ID' | 'GITHUB_PRIVATE_KEY' | 'GITHUB_PRIVATE_KEY_PATH'>,
): GitHubAuth {
  if (env.GITHUB_APP_ID) {
    return { kind: 'app', appId: env.GITHUB_APP_ID, privateKey: privateKeyFrom(env) };
  }
  if (env.GITHUB_TOKEN) return { kind: 'token', token: env.GITHUB_TOKEN };
  throw new BootyError('BOOTY_E_GITHUB_CREDENTIALS', { reason: 'neither a token nor a GitHub App is set' });
}

function privateKeyFrom(env: Pick<Env, 'GITHUB_PRIVATE_KEY' | 'GITHUB_PRIVATE_KEY_PATH'>): string {
  if (env.GITHUB_PRIVATE_KEY) {
    // Environment files often carry the PEM on one line with literal \n.
    return env.GITHUB_PRIVATE_KEY.replace(/\\n/g, '\n');
  }
  if (env.GITHUB_PRIVATE_KEY_PATH) {
    try {
      return fs.readFileSync(env.GITHUB_PRIVATE_KEY_PATH, 'utf8');
    } catch (err) {
      throw new BootyError('BOOTY_E_GITHUB_CREDENTIALS', {
        reason: `cannot read GITHUB_PRIVATE_KEY_PATH ${env.GITHUB_PRIVATE_KEY_PATH}: ${(err as Error).message}`,
      });
    }
  }
  throw new BootyError('BOOTY_E_GITHUB_CREDENTIALS', {
    reason: 'GITHUB_APP_ID is set without a private key',
  });
}
