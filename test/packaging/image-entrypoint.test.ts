import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { compiled } from '../support/compiled.js';
import { tempDir } from '../support/job-harness.js';

// The image's entrypoint as the image starts it: its ENTRYPOINT and CMD (`booty serve`), its ENV,
// and .env.example as a user who follows the README passes it: as a .env in its WORKDIR, or as
// Compose's env_file, whose settings go over the image's ENV.
// Two things differ, for a test on a shared machine: the volume /var/lib/booty is a temporary
// folder, and the port is any free one. Without Docker, node runs the compiled CLI itself.

const repo = path.resolve(import.meta.dirname, '../..');
const dockerfile = fs.readFileSync(path.join(repo, 'Dockerfile'), 'utf8');
const image = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

/** The final stage's ENV, its ENTRYPOINT and CMD. */
function imageStart(volume: string) {
  const env = Object.fromEntries(
    [...image.replace(/\\\n/g, ' ').matchAll(/^ENV (.*)$/gm)].flatMap((m) =>
      [...m[1]!.matchAll(/([A-Z_][A-Z0-9_]*)=(\S+)/g)].map((e) => [
        e[1]!,
        e[2]!.replace('/var/lib/booty', volume),
      ]),
    ),
  );
  const entrypoint = JSON.parse(/^ENTRYPOINT (.*)$/m.exec(image)![1]!) as string[];
  const cmd = JSON.parse(/^CMD (.*)$/m.exec(image)![1]!) as string[];
  return { env, entrypoint, cmd };
}

function start(settings: { dotEnv?: string; envFile?: string }) {
  const volume = tempDir('booty-volume-');
  const workdir = tempDir('booty-app-');
  if (settings.dotEnv !== undefined) fs.writeFileSync(path.join(workdir, '.env'), settings.dotEnv);
  const envFile = settings.envFile === undefined ? {} : parseEnv(settings.envFile);
  const { env, entrypoint, cmd } = imageStart(volume);
  // tini -- node /app/dist/src/cli/bin.js serve: the part after tini, with this checkout's build.
  expect(entrypoint.slice(0, 3)).toEqual(['tini', '--', 'node']);
  expect(entrypoint[3]).toBe('/app/dist/src/cli/bin.js');
  const proc = spawn(process.execPath, [compiled('src/cli/bin.ts'), ...cmd], {
    cwd: workdir,
    env: { PATH: process.env.PATH!, HOME: volume, ...env, ...envFile, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout.on('data', (d) => {
    out += d;
  });
  proc.stderr.on('data', (d) => {
    err += d;
  });
  const exited = new Promise<number | null>((resolve) => proc.on('exit', resolve));
  const listening = new Promise<string>((resolve, reject) => {
    proc.stdout.on('data', () => {
      const m = /booty is listening on (\S+) /.exec(out);
      if (m) resolve(m[1]!);
    });
    proc.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}${err}`)));
  });
  listening.catch(() => {});
  return { proc, exited, listening, volume, workdir, env, out: () => out, err: () => err };
}

const example = fs.readFileSync(path.join(repo, '.env.example'), 'utf8');

describe("the image's entrypoint with .env.example as .env", () => {
  it('given the file as it is, then serve exits 1 with one line naming what to fill in', async () => {
    const s = start({ dotEnv: example });
    expect(await s.exited).toBe(1);
    expect(s.out()).toBe('');
    expect(s.err()).toBe(
      "booty serve: environment variable GITHUB_WEBHOOK_SECRET is missing: set it (or Probot's WEBHOOK_SECRET) to the secret of your GitHub App or repository webhook (BOOTY_E_ENV_INVALID)\n",
    );
  });

  it("given what it asks filled in, as Compose's env_file, then serve keeps the image's own workdir and database, and stops on SIGTERM", async () => {
    const filled = example
      .replace(/^GITHUB_WEBHOOK_SECRET=$/m, 'GITHUB_WEBHOOK_SECRET=hook-secret')
      .replace(/^GITHUB_TOKEN=$/m, `GITHUB_TOKEN=ghp_${'a'.repeat(36)}`)
      .replace(/^ANTHROPIC_API_KEY=$/m, 'ANTHROPIC_API_KEY=sk-ant-test');
    const s = start({ envFile: filled });
    try {
      const url = (await s.listening).replace(/\/\/[^:]+:/, '//127.0.0.1:');
      const ready = await fetch(`${url}/readyz`);
      expect(ready.status).toBe(200);
      // Everything it writes is in the volume, where the image's ENV puts it, not in its WORKDIR
      // (the image's /app, which the user cannot write).
      expect(s.env.BOOTY_DB).toBe(path.join(s.volume, 'booty.db'));
      expect(fs.existsSync(s.env.BOOTY_DB!)).toBe(true);
      expect(fs.readdirSync(s.workdir)).toEqual([]);
    } finally {
      s.proc.kill('SIGTERM');
    }
    expect(await s.exited).toBe(0);
  });
});
