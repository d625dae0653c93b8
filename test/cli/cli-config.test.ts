import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import { cli } from '../support/cli.js';
import { compiled } from '../support/compiled.js';
import { tempDir } from '../support/job-harness.js';

// What every command shares: its version, and its settings read the same way, the environment over
// ./.env, whichever command reads them.

const repo = path.resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as {
  version: string;
  license: string;
};

/** The compiled CLI in `cwd`, with only the environment given. */
const bin = (args: string[], cwd: string, env: Record<string, string> = {}) => {
  const r = spawnSync(process.execPath, [compiled('src/cli/bin.ts'), ...args], {
    cwd,
    env: { PATH: process.env.PATH!, ...env },
    encoding: 'utf8',
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

describe('booty --version', () => {
  it("prints package.json's version, from the source and from the build", async () => {
    expect(await cli(['--version'])).toEqual({ code: 0, out: `booty ${pkg.version}`, err: '' });
    expect(bin(['--version'], tempDir('booty-version-'))).toEqual({
      code: 0,
      out: `booty ${pkg.version}\n`,
      err: '',
    });
  });

  it('ships beside a LICENSE that says what package.json says', () => {
    expect(pkg.license).toBe('MIT');
    expect(fs.readFileSync(path.join(repo, 'LICENSE'), 'utf8')).toMatch(
      /^MIT License\n\nCopyright \(c\) \d{4} /,
    );
  });
});

describe('./.env, for every command', () => {
  it('gives `booty jobs` its BOOTY_DB, and `booty token` too; the environment still wins', async () => {
    const dir = tempDir('booty-dotenv-cli-');
    const store = new SqliteEventStore(path.join(dir, 'from-dotenv.db'));
    await store.close();
    fs.writeFileSync(path.join(dir, '.env'), 'BOOTY_DB=./from-dotenv.db\n');
    expect(bin(['jobs'], dir)).toEqual({
      code: 0,
      out: `No jobs yet. Label an issue, or try \`node ${compiled('src/cli/bin.ts')} demo\`.\n`,
      err: '',
    });
    const made = bin(['token', 'create', '--scope', 'read', '--name', 'dash'], dir);
    expect([made.code, made.out]).toEqual([0, expect.stringMatching(/^booty_[0-9a-f]{8}_\S+\n$/)]);
    expect(bin(['token', 'list'], dir).out).toMatch(
      /^ID +SCOPE +CREATED +REVOKED +NAME\n[0-9a-f]{8} +read +\S+ +dash\n$/,
    );
    const elsewhere = bin(['jobs'], dir, { BOOTY_DB: path.join(dir, 'missing.db') });
    expect([elsewhere.code, elsewhere.err]).toEqual([
      1,
      `booty jobs: no database at ${path.join(dir, 'missing.db')}; pass --db PATH (or a postgres:// URL) or set BOOTY_DB (\`node ${compiled('src/cli/bin.ts')} demo\` makes one) (BOOTY_E_DB_MISSING)\n`,
    ]);
  });

  it('gives `booty run` the API key `booty app create` wrote there', async () => {
    const dir = tempDir('booty-dotenv-run-');
    // Without it, run stops at the key; with it, at the next thing it needs: the issue from GitHub.
    expect(bin(['run', 'acme/widgets#1'], dir).err).toBe(
      'booty run: environment variable ANTHROPIC_API_KEY is missing: booty needs it to call Claude (BOOTY_E_ENV_INVALID)\n',
    );
    fs.writeFileSync(path.join(dir, '.env'), 'ANTHROPIC_API_KEY=sk-ant-from-dotenv\n');
    expect(bin(['run', 'acme/widgets#1'], dir).err).toMatch(/^booty run: no usable GitHub credentials: /);
  });
});
