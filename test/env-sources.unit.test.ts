import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { EnvSchema, loadEnv, secretValues, tokenProblem } from '../src/env.js';
import { ENV_ALIASES, FILE_SECRETS, withAliases, withDotEnv } from '../src/env-sources.js';
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

describe('secrets from files (NAME_FILE)', () => {
  const dir = tempDir('booty-secret-files-');
  const file = (name: string, text: string) => {
    const at = path.join(dir, name);
    fs.writeFileSync(at, text);
    return at;
  };

  it('reads every secret from its file, dropping the trailing newline and keeping the rest', () => {
    const pem = '-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----';
    const env = loadEnv({
      GITHUB_WEBHOOK_SECRET_FILE: file('hook', 'hook secret\n'),
      GITHUB_WEBHOOK_SECRET_PREVIOUS_FILE: file('previous', 'old\r\n'),
      GITHUB_TOKEN_FILE: file('token', `ghp_${'a'.repeat(36)}\n`),
      GITHUB_APP_ID: '42',
      GITHUB_PRIVATE_KEY_FILE: file('key.pem', `${pem}\n`),
      GITHUB_CLIENT_SECRET_FILE: file('client', 'client'),
      ANTHROPIC_API_KEY_FILE: file('anthropic', 'sk-ant-1\n\n'),
      BOOTY_DATABASE_URL_FILE: file('url', 'postgres://booty:pw@db:5432/booty\n'),
    });
    expect([
      env.GITHUB_WEBHOOK_SECRET,
      env.GITHUB_WEBHOOK_SECRET_PREVIOUS,
      env.GITHUB_TOKEN,
      env.GITHUB_PRIVATE_KEY,
      env.GITHUB_CLIENT_SECRET,
      env.ANTHROPIC_API_KEY,
      env.BOOTY_DATABASE_URL,
    ]).toEqual([
      'hook secret',
      'old',
      `ghp_${'a'.repeat(36)}`,
      pem,
      'client',
      'sk-ant-1',
      'postgres://booty:pw@db:5432/booty',
    ]);
    expect(FILE_SECRETS).toEqual([
      'GITHUB_WEBHOOK_SECRET',
      'GITHUB_WEBHOOK_SECRET_PREVIOUS',
      'GITHUB_TOKEN',
      'GITHUB_PRIVATE_KEY',
      'GITHUB_CLIENT_SECRET',
      'GITLAB_TOKEN',
      'GITLAB_WEBHOOK_SECRET',
      'GITLAB_WEBHOOK_SECRET_PREVIOUS',
      'ANTHROPIC_API_KEY',
      'BOOTY_DATABASE_URL',
      'BOOTY_DATABASE_PASSWORD',
    ]);
  });

  it.each([
    [
      'both set',
      () => ({ GITHUB_TOKEN: 'ghp_x', GITHUB_TOKEN_FILE: file('t', 'ghp_y') }),
      'BOOTY_E_ENV_INVALID: environment variable GITHUB_TOKEN_FILE is set, and so is GITHUB_TOKEN: set one of them (the file is for container secrets)',
    ],
    [
      'a file that is not there',
      () => ({ ANTHROPIC_API_KEY_FILE: path.join(dir, 'missing') }),
      `BOOTY_E_ENV_INVALID: environment variable ANTHROPIC_API_KEY_FILE names ${path.join(dir, 'missing')}, which cannot be read (ENOENT: no such file or directory, open '${path.join(dir, 'missing')}'); mount the secret there or fix its permissions`,
    ],
    [
      'an empty file',
      () => ({ GITHUB_WEBHOOK_SECRET_FILE: file('empty', '\n') }),
      `BOOTY_E_ENV_INVALID: environment variable GITHUB_WEBHOOK_SECRET_FILE names ${path.join(dir, 'empty')}, which is empty; put the GITHUB_WEBHOOK_SECRET value in it`,
    ],
    [
      "a value that is wrong, named by the file's variable",
      () => ({ GITHUB_TOKEN_FILE: file('quoted', `"ghp_${'a'.repeat(36)}"\n`) }),
      'BOOTY_E_ENV_INVALID: environment variable GITHUB_TOKEN_FILE is invalid: is wrapped in quotes; set the token without them',
    ],
  ])('%s is one error naming the variable', (_, source, error) => {
    expect(errorOf(() => loadEnv(source()))).toBe(error);
  });

  it('puts BOOTY_DATABASE_PASSWORD (or its file) into the URL, which must then have none', () => {
    const env = loadEnv({
      BOOTY_DATABASE_URL: 'postgres://booty_worker@db:5432/booty',
      BOOTY_DATABASE_PASSWORD_FILE: file('db-password', 'p@ss:w/rd\n'),
    });
    expect(env.BOOTY_DATABASE_URL).toBe('postgres://booty_worker:p%40ss%3Aw%2Frd@db:5432/booty');
    expect(new URL(env.BOOTY_DATABASE_URL!).password).toBe('p%40ss%3Aw%2Frd');
    expect(errorOf(() => loadEnv({ BOOTY_DATABASE_PASSWORD: 'x' }))).toBe(
      'BOOTY_E_ENV_INVALID: environment variable BOOTY_DATABASE_PASSWORD is set, but BOOTY_DATABASE_URL is not: it is the password of that URL’s user',
    );
    expect(
      errorOf(() =>
        loadEnv({
          BOOTY_DATABASE_URL: 'postgres://u:p@db/booty',
          BOOTY_DATABASE_PASSWORD_FILE: file('p', 'x'),
        }),
      ),
    ).toBe(
      'BOOTY_E_ENV_INVALID: environment variable BOOTY_DATABASE_PASSWORD_FILE is set, and BOOTY_DATABASE_URL has a password too: leave the password out of the URL',
    );
  });
});

describe("Probot's WEBHOOK_PATH", () => {
  it('is where deliveries are taken, /webhooks unless set, and may not take one of booty’s own routes', () => {
    expect(loadEnv({}).WEBHOOK_PATH).toBe('/webhooks');
    expect(loadEnv({ WEBHOOK_PATH: '/api/github/webhooks' }).WEBHOOK_PATH).toBe('/api/github/webhooks');
    for (const bad of ['/', '/jobs/hook', 'webhooks', '/metrics']) {
      expect(errorOf(() => loadEnv({ WEBHOOK_PATH: bad }))).toMatch(
        /^BOOTY_E_ENV_INVALID: environment variable WEBHOOK_PATH is invalid: must /,
      );
    }
  });
});

describe('.env.example', () => {
  const file = path.resolve(import.meta.dirname, '../.env.example');
  const text = fs.readFileSync(file, 'utf8');
  const set = parseEnv(text);
  /** `# NAME=value` lines: a setting left at its default. */
  const commented = Object.fromEntries(
    [...text.matchAll(/^# ([A-Z_][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]),
  );

  it('sets only what a user must fill in, and names every other variable booty reads, commented out', () => {
    expect(Object.keys(set).sort()).toEqual(['ANTHROPIC_API_KEY', 'GITHUB_TOKEN', 'GITHUB_WEBHOOK_SECRET']);
    expect(Object.values(set)).toEqual(['', '', '']);
    const named = [...Object.keys(set), ...Object.keys(commented)].sort();
    expect(named).toEqual(Object.keys(EnvSchema.shape).sort());
    for (const alias of [...Object.keys(ENV_ALIASES), 'GHE_HOST', 'GHE_PROTOCOL'])
      expect(text).toContain(alias);
    for (const secret of FILE_SECRETS) expect(text).toContain(secret);
  });

  it('comments each setting out at its default, so uncommenting one changes nothing by itself', () => {
    const defaults = loadEnv({});
    for (const [name, value] of Object.entries(commented)) {
      if (value === '') continue;
      expect([name, loadEnv({ [name]: value })[name as keyof typeof defaults]]).toEqual([
        name,
        defaults[name as keyof typeof defaults],
      ]);
    }
  });

  it('copied as it is, means what an empty environment means, and leaves the image’s paths and GHE_HOST alone', () => {
    expect(loadEnv(withDotEnv({}, file))).toEqual(loadEnv({}));
    // Compose's env_file puts the file's settings over the image's ENV: none of them may be there.
    const image = { BOOTY_WORKDIR: '/var/lib/booty/work', BOOTY_DB: '/var/lib/booty/booty.db' };
    const env = loadEnv({ ...image, GHE_HOST: 'ghe.example.com', ...set });
    expect([env.BOOTY_WORKDIR, env.BOOTY_DB, env.GITHUB_API_URL]).toEqual([
      image.BOOTY_WORKDIR,
      image.BOOTY_DB,
      'https://ghe.example.com/api/v3',
    ]);
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

// BOOTY_SANDBOX_ENV: the variables an operator passes into the sandbox (a proxy, a registry), named
// and checked at start, so a secret of booty's or a variable the sandbox decides never gets in.
describe('BOOTY_SANDBOX_ENV', () => {
  it('is a list of names, each with its value from where the settings come from; a name unset is left out', () => {
    expect(loadEnv({}).BOOTY_SANDBOX_ENV).toEqual({});
    expect(
      loadEnv({
        BOOTY_SANDBOX_ENV: ' HTTPS_PROXY, NO_PROXY,,pip_index_url ',
        HTTPS_PROXY: 'http://proxy.internal:3128',
        pip_index_url: 'https://pypi.internal/simple',
        OTHER: 'not named',
      }).BOOTY_SANDBOX_ENV,
    ).toStrictEqual({
      HTTPS_PROXY: 'http://proxy.internal:3128',
      pip_index_url: 'https://pypi.internal/simple',
    });
  });

  it("adds a passed URL's password to the secrets kept out of output, not its other parts", () => {
    const env = loadEnv({
      BOOTY_SANDBOX_ENV: 'HTTPS_PROXY,PIP_INDEX_URL,NO_PROXY',
      HTTPS_PROXY: 'http://builder:s3cr%40t@proxy.internal:3128',
      PIP_INDEX_URL: 'https://aaaabbbbccccddddeeee@pypi.internal/simple',
      NO_PROXY: 'localhost,.internal',
    });
    expect(secretValues(env)).toEqual(['s3cr%40t', 's3cr@t', 'aaaabbbbccccddddeeee']);
  });

  it.each([
    [
      'GITHUB_TOKEN',
      "GITHUB_TOKEN is one of booty's own settings or secrets, which never reach the code under test",
    ],
    [
      'ANTHROPIC_API_KEY',
      "ANTHROPIC_API_KEY is one of booty's own settings or secrets, which never reach the code under test",
    ],
    ['BOOTY_DB', "BOOTY_DB is one of booty's own settings or secrets, which never reach the code under test"],
    [
      'WEBHOOK_SECRET',
      "WEBHOOK_SECRET is one of booty's own settings or secrets, which never reach the code under test",
    ],
    ['PATH', 'PATH is set by the sandbox itself, and cannot be passed in'],
    ['HOME', 'HOME is set by the sandbox itself, and cannot be passed in'],
    ['rustup_home', 'rustup_home is set by the sandbox itself, and cannot be passed in'],
    ['PYTEST_ADDOPTS', 'PYTEST_ADDOPTS is set by the sandbox itself, and cannot be passed in'],
    [
      'github_token',
      "github_token is one of booty's own settings or secrets, which never reach the code under test",
    ],
    ['APP_ID', "APP_ID is one of booty's own settings or secrets, which never reach the code under test"],
    [
      'PRIVATE_KEY_PATH',
      "PRIVATE_KEY_PATH is one of booty's own settings or secrets, which never reach the code under test",
    ],
    [
      'WEBHOOK_PROXY_URL',
      "WEBHOOK_PROXY_URL is one of booty's own settings or secrets, which never reach the code under test",
    ],
    ['PORT', "PORT is one of booty's own settings or secrets, which never reach the code under test"],
    [
      'GITLAB_TOKEN_FILE',
      "GITLAB_TOKEN_FILE is one of booty's own settings or secrets, which never reach the code under test",
    ],
    [
      'HTTPS_PROXY=http://proxy:3128',
      'HTTPS_PROXY=http://proxy:3128 is not a variable name (letters, digits and _, not starting with a digit); list names only, as in HTTPS_PROXY,NO_PROXY',
    ],
  ])('refuses %s, naming it and why', (name, why) => {
    expect(errorOf(() => loadEnv({ BOOTY_SANDBOX_ENV: `NO_PROXY,${name}` }))).toBe(
      `BOOTY_E_ENV_INVALID: environment variable BOOTY_SANDBOX_ENV is invalid: ${why}`,
    );
  });
});
