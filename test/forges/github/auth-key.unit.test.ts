import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../../src/env.js';
import { authFromEnv } from '../../../src/forges/github/auth.js';

// An App's private key, as people paste it: PEM text, PEM with literal \n on one line (a .env),
// base64 of the PEM (Probot's other form). What is not an RSA private key is refused by name.

const { privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
});
const app = (key: Record<string, string>) => authFromEnv(loadEnv({ GITHUB_APP_ID: '42', ...key }));

describe('the App key from the environment', () => {
  it.each([
    ['as PEM text', privateKey],
    ['on one line with \\n', privateKey.replace(/\n/g, '\\n')],
    ['base64-encoded', Buffer.from(privateKey).toString('base64')],
  ])('is taken %s', (_, value) => {
    expect(app({ GITHUB_PRIVATE_KEY: value })).toEqual({ kind: 'app', appId: '42', privateKey });
  });

  it('is refused, by the name it was given under, when it is not an RSA private key', () => {
    const ec = generateKeyPairSync('ec', {
      namedCurve: 'P-256',
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    }).privateKey;
    expect(() => app({ PRIVATE_KEY: ec })).toThrow(
      "environment variable PRIVATE_KEY is a key of type ec; GitHub Apps sign with RSA keys; use the .pem file from the App's settings (Private keys: Generate), whole, with its BEGIN and END lines",
    );
    expect(() => app({ GITHUB_PRIVATE_KEY: Buffer.from('not a key').toString('base64') })).toThrow(
      'environment variable GITHUB_PRIVATE_KEY is not a PEM private key (no -----BEGIN line)',
    );
  });
});
