import { createPrivateKey } from 'node:crypto';
import fs from 'node:fs';
import type { Env } from '../../env.js';
import { envName } from '../../env-sources.js';
import { BootyError } from '../../errors.js';

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

type AuthEnv = Pick<Env, 'GITHUB_TOKEN' | 'GITHUB_APP_ID' | 'GITHUB_PRIVATE_KEY' | 'GITHUB_PRIVATE_KEY_PATH'>;

/** The credential from the environment; an App's key is read and parsed now, not at the first job. */
export function authFromEnv(env: AuthEnv): GitHubAuth {
  if (env.GITHUB_APP_ID) {
    return { kind: 'app', appId: env.GITHUB_APP_ID.trim(), privateKey: privateKeyFrom(env) };
  }
  if (env.GITHUB_TOKEN) return { kind: 'token', token: env.GITHUB_TOKEN };
  throw new BootyError('BOOTY_E_GITHUB_CREDENTIALS', { reason: 'neither a token nor a GitHub App is set' });
}

function privateKeyFrom(env: AuthEnv): string {
  if (env.GITHUB_PRIVATE_KEY) {
    // Environment files often carry the PEM on one line with literal \n; Probot also takes it
    // base64-encoded, which survives any environment.
    return checkedKey(
      fromBase64(env.GITHUB_PRIVATE_KEY).replace(/\\n/g, '\n'),
      envName(env, 'GITHUB_PRIVATE_KEY'),
    );
  }
  if (env.GITHUB_PRIVATE_KEY_PATH) {
    const name = envName(env, 'GITHUB_PRIVATE_KEY_PATH');
    let text: string;
    try {
      text = fs.readFileSync(env.GITHUB_PRIVATE_KEY_PATH, 'utf8');
    } catch (err) {
      throw new BootyError('BOOTY_E_ENV_INVALID', {
        name,
        reason: `names a file booty cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}: ${env.GITHUB_PRIVATE_KEY_PATH}); point it at the .pem file downloaded from the App's settings`,
      });
    }
    return checkedKey(text, `${name} (${env.GITHUB_PRIVATE_KEY_PATH})`);
  }
  throw new BootyError('BOOTY_E_GITHUB_CREDENTIALS', {
    reason: 'GITHUB_APP_ID is set without a private key',
  });
}

/** A PEM given base64-encoded, decoded; anything else as it is. */
function fromBase64(value: string): string {
  if (value.includes('-----BEGIN') || !/^[A-Za-z0-9+/=\s]+$/.test(value)) return value;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  return decoded.includes('-----BEGIN') ? decoded : value;
}

/** The PEM, once node has parsed it as an RSA private key: what GitHub signs App JWTs with. */
function checkedKey(pem: string, name: string): string {
  const problem = keyProblem(pem);
  if (problem) {
    throw new BootyError('BOOTY_E_ENV_INVALID', {
      name,
      reason: `${problem}; use the .pem file from the App's settings (Private keys: Generate), whole, with its BEGIN and END lines`,
    });
  }
  return pem;
}

function keyProblem(pem: string): string | null {
  if (!pem.includes('-----BEGIN')) return 'is not a PEM private key (no -----BEGIN line)';
  if (/-----BEGIN (RSA )?PUBLIC KEY-----|-----BEGIN CERTIFICATE-----/.test(pem))
    return 'holds a public key or certificate, not the private key';
  try {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType !== 'rsa')
      return `is a key of type ${key.asymmetricKeyType}; GitHub Apps sign with RSA keys`;
    return null;
  } catch (err) {
    return `is not a readable PEM private key (${(err as Error).message.split('\n')[0]})`;
  }
}
