import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { EnvSchema, loadEnv, tokenProblem } from '../src/env.js';
import { ENV_ALIASES, withAliases, withDotEnv } from '../src/env-sources.js';
import { isBootyError } from '../src/errors.js';
import { tempDir } from './support/job-harness.js';

// Where settings come from: booty's names, Probot's names for the same settings, and ./.env.

const errorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (isBootyError(err)) return `${err.code}: ${err.message}`;
    throw err;
  }
  throw new Error('expected an error');
};

describe("Probot's variable names", () => {
  it('fill in booty’s names: APP_ID, PRIVATE_KEY, PRIVATE_KEY_PATH, WEBHOOK_SECRET', () => {
    const env = loadEnv({
      APP_ID: '42',
      PRIVATE_KEY: 'pem',
      PRIVATE_KEY_PATH: '/keys/app.pem',
      WEBHOOK_SECRET: 'hook',
    });
    expect([
      env.GITHUB_APP_ID,
      env.GITHUB_PRIVATE_KEY,
      env.GITHUB_PRIVATE_KEY_PATH,
      env.GITHUB_WEBHOOK_SECRET,
    ]).toEqual(['42', 'pem', '/keys/app.pem', 'hook']);
  });

  it('lose to booty’s own names when both are set', () => {
    const env = loadEnv({ APP_ID: '1', GITHUB_APP_ID: '2', WEBHOOK_SECRET: 'a', GITHUB_WEBHOOK_SECRET: 'b' });
    expect([env.GITHUB_APP_ID, env.GITHUB_WEBHOOK_SECRET]).toEqual(['2', 'b']);
  });

  it('map GHE_HOST (and GHE_PROTOCOL) to GitHub Enterprise’s API URL, unless GITHUB_API_URL is set', () => {
    expect(loadEnv({ GHE_HOST: 'ghe.example.com' }).GITHUB_API_URL).toBe('https://ghe.example.com/api/v3');
    expect(loadEnv({ GHE_HOST: 'ghe.local:8080', GHE_PROTOCOL: 'http' }).GITHUB_API_URL).toBe(
      'http://ghe.local:8080/api/v3',
    );
    expect(
      loadEnv({ GHE_HOST: 'ghe.example.com', GITHUB_API_URL: 'https://other.example/api/v3' }).GITHUB_API_URL,
    ).toBe('https://other.example/api/v3');
    expect(errorOf(() => withAliases({ GHE_HOST: 'https://ghe.example.com' }))).toBe(
      'BOOTY_E_ENV_INVALID: environment variable GHE_HOST is invalid: "https://ghe.example.com" is not a host name like ghe.example.com (no scheme, no path); or set GITHUB_API_URL',
    );
  });

  it('are the names an error gives when the value came from them', () => {
    expect(errorOf(() => loadEnv({ APP_ID: 'my-app' }))).toBe(
      "BOOTY_E_ENV_INVALID: environment variable APP_ID is invalid: must be the App's numeric id (its settings page, About: App ID), not its client id (Iv1.…) or its name",
    );
  });
});

describe('a .env file', () => {
  it('fills in what the environment does not set; the environment wins', () => {
    const file = path.join(tempDir('booty-dotenv-'), '.env');
    fs.writeFileSync(
      file,
      [
        '# written by booty app create',
        'APP_ID=101',
        'WEBHOOK_SECRET=from-file',
        'PRIVATE_KEY="-----BEGIN RSA PRIVATE KEY-----\\nAAAA\\n-----END RSA PRIVATE KEY-----\\n"',
        'LOG_LEVEL=debug',
      ].join('\n'),
    );
    const env = loadEnv(withDotEnv({ LOG_LEVEL: 'warn' }, file));
    expect(env.GITHUB_APP_ID).toBe('101');
    expect(env.GITHUB_WEBHOOK_SECRET).toBe('from-file');
    expect(env.GITHUB_PRIVATE_KEY).toBe(
      '-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n',
    );
    expect(env.LOG_LEVEL).toBe('warn');
  });

  it('is optional, but one that cannot be read is an error naming it', () => {
    const dir = tempDir('booty-dotenv-');
    expect(withDotEnv({ A: '1' }, path.join(dir, '.env'))).toEqual({ A: '1' });
    fs.mkdirSync(path.join(dir, 'dir.env'));
    expect(errorOf(() => withDotEnv({}, path.join(dir, 'dir.env')))).toMatch(
      new RegExp(`^BOOTY_E_ENV_INVALID: environment variable file ${dir}/dir.env cannot be read: EISDIR`),
    );
  });
});

describe('.env.example', () => {
  const file = path.resolve(import.meta.dirname, '../.env.example');
  const example = parseEnv(fs.readFileSync(file, 'utf8'));

  it("lists every variable booty reads, and Probot's names are in its comments", () => {
    expect(Object.keys(example).sort()).toEqual(Object.keys(EnvSchema.shape).sort());
    const text = fs.readFileSync(file, 'utf8');
    for (const alias of [...Object.keys(ENV_ALIASES), 'GHE_HOST', 'GHE_PROTOCOL'])
      expect(text).toContain(alias);
  });

  it('holds the defaults: copied as it is, it means what an empty environment means', () => {
    expect(loadEnv(withDotEnv({}, file))).toEqual(loadEnv({}));
  });
});

describe('token shapes', () => {
  it.each([
    [`ghp_${'A1'.repeat(18)}`, null],
    [`ghs_${'b'.repeat(36)}`, null],
    [`github_pat_11AAAA_${'x'.repeat(60)}`, null],
    ['0123456789abcdef0123456789abcdef01234567', null],
    [
      `ghp_${'a'.repeat(36)} `,
      'has whitespace in it (a newline or space copied with it?); set the token alone',
    ],
    [`"ghp_${'a'.repeat(36)}"`, 'is wrapped in quotes; set the token without them'],
    [
      'Bearer-token',
      'does not look like a GitHub token (ghp_…, github_pat_…, ghs_…, gho_…, or 40 hex digits)',
    ],
    [
      'github_pat_short',
      'starts like a fine-grained token (github_pat_…) but the rest is not its letters, digits and _; copy it again',
    ],
  ])('%j: %s', (token, problem) => {
    expect(tokenProblem(token)).toBe(problem);
  });
});
