import { type ChildProcess, spawn } from 'node:child_process';
import { bootyBin } from '../e2e/cli-process.js';
import { tempDir } from '../support/job-harness.js';

// `booty serve` as an operator runs it, the compiled CLI in its own process, with only the given
// environment (and no .env: it starts in an empty directory). Resolves its URL once it listens.

export interface ServeProcess {
  proc: ChildProcess;
  url: Promise<string>;
  exited: Promise<NodeJS.Signals | number | null>;
  /** What it wrote, for a failure's message. */
  output(): string;
}

export function startServe(env: Record<string, string>): ServeProcess {
  const proc = spawn(process.execPath, [bootyBin(), 'serve'], {
    cwd: tempDir('booty-serve-cwd-'),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  proc.stderr!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    proc.on('close', (code, signal) => resolve(signal ?? code)),
  );
  const url = new Promise<string>((resolve, reject) => {
    const look = () => {
      const m = /booty is listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    };
    proc.stdout!.on('data', look);
    void exited.then((how) => reject(new Error(`serve exited (${how}) before listening:\n${out}`)));
  });
  url.catch(() => {});
  return { proc, url, exited, output: () => out.slice(-6000) };
}
