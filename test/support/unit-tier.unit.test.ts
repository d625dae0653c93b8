import { execFile, execFileSync, fork, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import net from 'node:net';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';

// The unit tier's guard (unit-tier.ts) is on in every *.unit.test.ts file: each way out of the
// process throws an error that names the rule. The guard also fails the test afterwards, so each
// case here takes back the violation it provoked.

const rule = /^BOOTY unit tier: .+ Unit tests run in-process only/;
const provoked = (globalThis as { [key: symbol]: string[] })[Symbol.for('booty.unitTier')]!;

afterEach(() => {
  expect(provoked.splice(0)).toHaveLength(1);
});

describe('a unit test cannot leave its process', () => {
  it('starts no process, through child_process or execa', async () => {
    expect(() => spawn('git', ['--version'])).toThrow(rule);
    provoked.splice(0);
    expect(() => spawnSync('git')).toThrow(rule);
    provoked.splice(0);
    expect(() => execFileSync('git')).toThrow(rule);
    provoked.splice(0);
    expect(() => fork('x.js')).toThrow(rule);
    provoked.splice(0);
    await expect(promisify(execFile)('git', ['--version'])).rejects.toThrow(rule);
    provoked.splice(0);
    await expect(execa('git', ['--version'])).rejects.toThrow(
      /BOOTY unit tier: child_process\.spawn\("git"\)/,
    );
  });

  it('connects to no socket, fetch included', async () => {
    expect(() => net.connect(5432, '127.0.0.1')).toThrow(rule);
    provoked.splice(0);
    await expect(fetch('http://127.0.0.1:8080/')).rejects.toMatchObject({
      cause: { message: expect.stringMatching(rule) },
    });
  });

  it('listens on no socket', () => {
    expect(() => createServer().listen(0)).toThrow(/BOOTY unit tier: listening on a socket/);
  });

  it('opens no SQLite file, but may use an in-memory database', () => {
    const memory = new Database(':memory:');
    expect(memory.prepare('select 1 + 1 as two').get()).toEqual({ two: 2 });
    memory.close();
    expect(() => new Database('booty.db')).toThrow(/BOOTY unit tier: opening the SQLite database "booty.db"/);
  });
});
