#!/usr/bin/env node
import { beginLeanStart } from '../main/lean-start.js';
import { invocation } from './invocation.js';
import { main } from './main.js';

// serve idles for days: its start-up should not leave it sized for a load it has not seen
// (main/lean-start.ts). Before `main` loads the command's modules.
if (process.argv[2] === 'serve') beginLeanStart();

// A command still running when node runs out of work to wait for did not finish, and must not
// exit 0 as if it had: a serve that failed to listen once did, in silence.
let settled = false;
process.on('exit', (code) => {
  if (settled || code !== 0) return;
  process.stderr.write(
    `booty: ${process.argv[2] ?? ''} stopped before it finished, with nothing left to wait for\n`,
  );
  process.exitCode = 1;
});

main(process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
  self: invocation(),
}).then(
  (code) => {
    settled = true;
    process.exitCode = code;
  },
  (err) => {
    settled = true;
    process.stderr.write(`booty: ${(err as Error).message}\n`);
    process.exitCode = 1;
  },
);
