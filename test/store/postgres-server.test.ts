import { spawn } from 'node:child_process';
import fs from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { compiled } from '../support/compiled.js';
import { serversDir, startPostgresServer } from '../support/postgres-server.js';

// The test run's PostgreSQL server outlives a run that is killed (its process is not the run's
// child any more): the next start stops it and removes its files, so none piles up on a port.

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client(url);
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

describe('the test PostgreSQL server', () => {
  it('given a run killed with its server up, then the next start stops that server and removes its files', async () => {
    const holder = spawn(process.execPath, [compiled('test/store/fixtures/postgres-holder.ts')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      holder.stdout.on('data', (chunk) => {
        out += chunk;
        if (out.includes('\n')) resolve(out.trim());
      });
      holder.once('exit', (code) =>
        reject(new Error(`the holder exited (${code}) before its server was up`)),
      );
    });
    const dirs = () => fs.readdirSync(serversDir()).filter((d) => d.startsWith('booty-pg-'));
    // Other runs' servers are there too, some starting or stopping as this reads.
    const owner = (d: string) => {
      try {
        return fs.readFileSync(`${serversDir()}/${d}/owner`, 'utf8');
      } catch {
        return null;
      }
    };
    const abandoned = dirs().find((d) => owner(d) === String(holder.pid));
    // Killed before anything is asserted, so a failure here leaves no holder running.
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
    expect(abandoned).toBeDefined();
    expect(await answers(url)).toBe(true);

    const next = await startPostgresServer();
    try {
      expect(dirs()).not.toContain(abandoned);
      // SIGQUIT ends the abandoned server at once; it stops answering as soon as it is gone.
      let up = true;
      for (let tries = 0; up && tries < 100; tries++) {
        up = await answers(url);
        if (up) await new Promise((r) => setTimeout(r, 50));
      }
      expect(up).toBe(false);
      expect(await answers(next.url)).toBe(true);
    } finally {
      await next.stop();
    }
  });
});
