import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import { tempDir } from '../support/job-harness.js';
import { serveProcess } from '../support/serve-process.js';
import { startTestServer } from './gateway-harness.js';

// `booty serve` checks at start everything a first job would otherwise trip on, and says what is
// wrong in one line naming the variable; /readyz checks the same things again while it runs.

const rsa = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });

/** The real CLI with only these variables (and a PATH); it must never get as far as listening. */
function serve(env: Record<string, string>) {
  const dir = tempDir('booty-startup-');
  const s = serveProcess(
    {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      BOOTY_DB: path.join(dir, 'booty.db'),
      BOOTY_WORKDIR: path.join(dir, 'work'),
      BOOTY_SANDBOX: 'off',
      GITHUB_WEBHOOK_SECRET: 'secret',
      ANTHROPIC_API_KEY: 'sk-ant-test-key',
      ...env,
    },
    { only: true },
  );
  return { ...s, dir };
}

async function refused(env: Record<string, string>) {
  const s = serve(env);
  const code = await s.exited;
  return {
    code,
    lines: s.err().trim().split('\n'),
    out: s.out(),
    dbMade: fs.existsSync(path.join(s.dir, 'booty.db')),
  };
}

describe('booty serve start-up checks', () => {
  it('exits 1 with one line naming GITHUB_PRIVATE_KEY when the key is not a PEM key', async () => {
    const r = await refused({ GITHUB_APP_ID: '12345', GITHUB_PRIVATE_KEY: 'not-a-key-at-all' });
    expect(r.code).toBe(1);
    expect(r.lines).toEqual([
      "booty serve: environment variable GITHUB_PRIVATE_KEY is not a PEM private key (no -----BEGIN line); use the .pem file from the App's settings (Private keys: Generate), whole, with its BEGIN and END lines (BOOTY_E_ENV_INVALID)",
    ]);
    expect(r.out).toBe('');
    expect(r.dbMade).toBe(false);
  });

  it('exits 1 naming the key when the PEM is cut short, and names the Probot alias it came from', async () => {
    const pem = rsa().privateKey;
    const cut = `${pem.slice(0, 200)}\n${pem.slice(-40)}`;
    const r = await refused({ APP_ID: '12345', PRIVATE_KEY: cut });
    expect(r.code).toBe(1);
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]).toMatch(
      /^booty serve: environment variable PRIVATE_KEY is not a readable PEM private key \(.+\); use the \.pem file/,
    );
    expect(r.lines[0]).toMatch(/\(BOOTY_E_ENV_INVALID\)$/);
  });

  it('exits 1 when GITHUB_PRIVATE_KEY_PATH holds a public key, or names no file', async () => {
    const dir = tempDir('booty-keys-');
    const pub = path.join(dir, 'public.pem');
    fs.writeFileSync(pub, rsa().publicKey);
    const wrong = await refused({ GITHUB_APP_ID: '1', GITHUB_PRIVATE_KEY_PATH: pub });
    expect(wrong.code).toBe(1);
    expect(wrong.lines).toEqual([
      `booty serve: environment variable GITHUB_PRIVATE_KEY_PATH (${pub}) holds a public key or certificate, not the private key; use the .pem file from the App's settings (Private keys: Generate), whole, with its BEGIN and END lines (BOOTY_E_ENV_INVALID)`,
    ]);
    const missing = path.join(dir, 'nowhere.pem');
    const gone = await refused({ GITHUB_APP_ID: '1', GITHUB_PRIVATE_KEY_PATH: missing });
    expect(gone.code).toBe(1);
    expect(gone.lines).toEqual([
      `booty serve: environment variable GITHUB_PRIVATE_KEY_PATH names a file booty cannot read (ENOENT: ${missing}); point it at the .pem file downloaded from the App's settings (BOOTY_E_ENV_INVALID)`,
    ]);
  });

  it.each([
    [
      'a token with a newline copied into it',
      { GITHUB_TOKEN: `ghp_${'a'.repeat(36)}\n` },
      'environment variable GITHUB_TOKEN is invalid: has whitespace in it (a newline or space copied with it?); set the token alone',
    ],
    [
      'a token cut short',
      { GITHUB_TOKEN: 'ghp_abc' },
      'environment variable GITHUB_TOKEN is invalid: starts like a GitHub token (ghp_…) but the rest is not its letters and digits; copy it again',
    ],
    [
      'an App id that is the client id',
      { GITHUB_APP_ID: 'Iv1.0123456789abcdef', GITHUB_PRIVATE_KEY: 'x' },
      "environment variable GITHUB_APP_ID is invalid: must be the App's numeric id (its settings page, About: App ID), not its client id (Iv1.…) or its name",
    ],
    [
      "GitHub's web address as the API",
      { GITHUB_TOKEN: `ghp_${'a'.repeat(36)}`, GITHUB_API_URL: 'https://github.com' },
      "environment variable GITHUB_API_URL is invalid: is GitHub's web address; the API is https://api.github.com (GitHub Enterprise: https://<host>/api/v3)",
    ],
    [
      'a smee channel that is not a URL',
      { GITHUB_TOKEN: `ghp_${'a'.repeat(36)}`, WEBHOOK_PROXY_URL: 'smee.io/abc' },
      'environment variable WEBHOOK_PROXY_URL is invalid: must be an http:// or https:// URL',
    ],
  ])('exits 1 on %s, in one line', async (_, env, message) => {
    const r = await refused(env);
    expect(r.code).toBe(1);
    expect(r.lines).toEqual([`booty serve: ${message} (BOOTY_E_ENV_INVALID)`]);
  });

  it('exits 1 naming BOOTY_WORKDIR when it cannot be made', async () => {
    const dir = tempDir('booty-workdir-');
    const file = path.join(dir, 'a-file');
    fs.writeFileSync(file, '');
    const r = await refused({
      GITHUB_TOKEN: `ghp_${'a'.repeat(36)}`,
      BOOTY_WORKDIR: path.join(file, 'work'),
    });
    expect(r.code).toBe(1);
    expect(r.lines).toEqual([
      `booty serve: environment variable BOOTY_WORKDIR is not usable: ${file} is a file, not a directory; point it at a directory booty may write (mirrors and job clones go there) (BOOTY_E_ENV_INVALID)`,
    ]);
    expect(r.dbMade).toBe(false);
  });

  it('starts with a good App key, given through the Probot names', async () => {
    const dir = tempDir('booty-keys-');
    const key = path.join(dir, 'app.pem');
    fs.writeFileSync(key, rsa().privateKey);
    // No look at GitHub's deliveries: this test has no GitHub to ask.
    const s = serve({
      APP_ID: '12345',
      PRIVATE_KEY_PATH: key,
      WEBHOOK_SECRET: 'probot-secret',
      BOOTY_REDELIVER_MINUTES: '0',
    });
    try {
      const url = await s.url;
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
    } finally {
      s.proc.kill('SIGTERM');
      expect(await s.exited).toBe(0);
    }
  });
});

describe('booty serve on a database that refuses writes', () => {
  it('exits 1 with one line naming the file, not a server that can never write', async () => {
    const dir = tempDir('booty-readonly-');
    const db = path.join(dir, 'booty.db');
    await new SqliteEventStore(db).close();
    // Immutable (as root): SQLite would open it read-only, and stay so once it is writable again.
    execFileSync('chattr', ['+i', db]);
    const s = serve({ GITHUB_TOKEN: `ghp_${'a'.repeat(36)}`, BOOTY_DB: db });
    try {
      expect(await Promise.race([s.exited, s.url.then(() => 'listening')])).toBe(1);
      expect(s.err().trim().split('\n')).toEqual([
        `booty serve: the database file ${db} refuses writes (EPERM: made immutable or read-only, or its file system remounted read-only); make it writable again (chattr -i, chmod u+w, a read-write mount) (BOOTY_E_STORE_READONLY)`,
      ]);
      expect(s.out()).toBe('');
    } finally {
      s.proc.kill('SIGKILL');
      execFileSync('chattr', ['-i', db]);
    }
  });
});

describe('booty serve when it cannot listen', () => {
  const token = { GITHUB_TOKEN: `ghp_${'a'.repeat(36)}` };
  const cannot = (address: string, reason: string) =>
    `booty serve: cannot listen on ${address}: ${reason} (BOOTY_E_LISTEN)`;

  it('exits 1 with one line naming the address when the port is in use', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as net.AddressInfo;
    try {
      const r = await refused({ ...token, PORT: String(port) });
      expect(r.code).toBe(1);
      expect(r.lines).toEqual([
        cannot(
          `127.0.0.1:${port}`,
          'the address is in use: another process listens there; stop it, or set PORT to a free port',
        ),
      ]);
      expect(r.out).toBe('');
    } finally {
      taken.close();
    }
  });

  it.each([
    [
      'not an address',
      '999.1.1.1',
      'HOST (999.1.1.1) is not an address: it does not resolve; set HOST to an address of this machine, or 0.0.0.0 for all',
    ],
    [
      'not one of this machine',
      '192.0.2.1',
      'HOST (192.0.2.1) is not an address of this machine; set HOST to one of its addresses, or 0.0.0.0 for all',
    ],
  ])('exits 1 with one line when HOST is %s', async (_, host, reason) => {
    const r = await refused({ ...token, HOST: host, PORT: '3999', LOG_LEVEL: 'debug' });
    expect(r.code).toBe(1);
    expect(r.lines).toEqual([cannot(`${host}:3999`, reason)]);
    expect(r.out).toBe('');
  });
});

describe('/readyz and what the first job needs', () => {
  it('fails naming the key file once it is gone, and the workdir once it is not a directory', async () => {
    const dir = tempDir('booty-ready-');
    const key = path.join(dir, 'app.pem');
    const work = path.join(dir, 'work');
    fs.writeFileSync(key, rsa().privateKey);
    const s = await startTestServer({
      // No look at GitHub's deliveries: this test has no GitHub to ask.
      env: {
        GITHUB_APP_ID: '7',
        GITHUB_PRIVATE_KEY_PATH: key,
        BOOTY_WORKDIR: work,
        BOOTY_REDELIVER_MINUTES: '0',
      },
    });
    const config = async () => {
      const res = await fetch(`${s.url}/readyz`);
      const body = (await res.json()) as { checks: { name: string; ok: boolean; reason?: string }[] };
      return { status: res.status, check: body.checks.find((c) => c.name === 'config') };
    };
    try {
      expect(await config()).toEqual({ status: 200, check: { name: 'config', ok: true } });

      fs.renameSync(key, `${key}.moved`);
      expect(await config()).toEqual({
        status: 503,
        check: {
          name: 'config',
          ok: false,
          reason: `environment variable GITHUB_PRIVATE_KEY_PATH names a file booty cannot read (ENOENT: ${key}); point it at the .pem file downloaded from the App's settings`,
        },
      });

      fs.renameSync(`${key}.moved`, key);
      fs.writeFileSync(work, 'not a directory');
      expect(await config()).toEqual({
        status: 503,
        check: {
          name: 'config',
          ok: false,
          reason: `environment variable BOOTY_WORKDIR is not usable: ${work} is a file, not a directory; point it at a directory booty may write (mirrors and job clones go there)`,
        },
      });

      fs.rmSync(work);
      expect((await config()).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
