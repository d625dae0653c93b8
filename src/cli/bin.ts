#!/usr/bin/env node
import { invocation } from './invocation.js';
import { main } from './main.js';

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
