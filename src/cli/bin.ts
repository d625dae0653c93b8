#!/usr/bin/env node
import { beginLeanStart } from '../runtime/lean-start.js';
import { invocation } from './invocation.js';
import { main } from './main.js';

// serve idles for days: its start-up should not leave it sized for a load it has not seen
// (runtime/lean-start.ts). Before `main` loads the command's modules.
if (process.argv[2] === 'serve') beginLeanStart();

main(process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
  self: invocation(),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`booty: ${(err as Error).message}\n`);
    process.exitCode = 1;
  },
);
