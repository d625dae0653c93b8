import childProcess from 'node:child_process';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import { afterAll, afterEach } from 'vitest';

// The unit tier's rule, enforced while its files run: a unit test stays in this process. Starting a
// process, opening a socket (connecting or listening) or opening a SQLite database file throws, and
// the test fails even when the code under test catches that error. SQLite's `:memory:` stays
// allowed: it is a data structure in this process, like a Map, with no file and no server.
// A test that needs any of these is a system test: name it `*.test.ts`, not `*.unit.test.ts`.

const key = Symbol.for('booty.unitTier');
const registry = globalThis as { [key]?: string[] };
const fresh = registry[key] === undefined;
registry[key] ??= [];
/** What broke the rule in the running test; `unit-tier.unit.test.ts` takes back the ones it provokes. */
const violations = registry[key];

function refuse(what: string): never {
  const message = `BOOTY unit tier: ${what} in a *.unit.test.ts file. Unit tests run in-process only (no child process, no socket, no SQLite file); rename the file to *.test.ts to make it a system test, or keep the test in-process.`;
  violations.push(message);
  throw new Error(message);
}

// Patched once per process: with `isolate: false` this file runs again for every test file.
if (fresh) {
  const processStarters = [
    'spawn',
    'spawnSync',
    'exec',
    'execSync',
    'execFile',
    'execFileSync',
    'fork',
  ] as const;
  const writable = childProcess as unknown as Record<string, unknown>;
  for (const name of processStarters) {
    writable[name] = (command: unknown) => refuse(`child_process.${name}(${JSON.stringify(command)})`);
  }
  // ES module imports of node:child_process read the patched functions too.
  syncBuiltinESMExports();

  net.Socket.prototype.connect = function connect(...args: unknown[]) {
    return refuse(`opening a socket (net connect ${JSON.stringify(args[0])})`);
  };
  net.Server.prototype.listen = function listen(...args: unknown[]) {
    return refuse(`listening on a socket (server listen ${JSON.stringify(args[0])})`);
  };

  // better-sqlite3 opens every database through its native addon's constructor; the addon is one
  // cached module, so wrapping its constructor here covers every `new Database(...)` in the run.
  const require = createRequire(import.meta.url);
  const addon = require(require.resolve('better-sqlite3/build/Release/better_sqlite3.node')) as {
    Database: new (filename: string, ...rest: unknown[]) => unknown;
  };
  const OpenDatabase = addon.Database;
  addon.Database = function GuardedDatabase(filename: string, ...rest: unknown[]) {
    if (filename !== ':memory:') refuse(`opening the SQLite database ${JSON.stringify(filename)}`);
    return new OpenDatabase(filename, ...rest);
  } as unknown as typeof addon.Database;
}

function failOnViolations() {
  const seen = violations.splice(0);
  if (seen.length > 0) throw new Error(seen.join('\n'));
}

afterEach(failOnViolations);
afterAll(failOnViolations);
