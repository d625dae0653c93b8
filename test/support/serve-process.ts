import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiled } from './compiled.js';

// `booty serve`, the real CLI, as a child process: its URL once it listens, its exit, its output.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** `env` adds to this process's environment, or with `only` is the whole of it. */
export function serveProcess(env: Record<string, string>, options: { only?: boolean } = {}) {
  const proc = spawn(process.execPath, [compiled('src/cli/bin.ts'), 'serve'], {
    cwd: root,
    env: options.only ? env : { ...process.env, ...env },
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
  const url = new Promise<string>((resolve, reject) => {
    proc.stdout.on('data', () => {
      const m = /booty is listening on (\S+) /.exec(out);
      if (m) resolve(m[1]!);
    });
    proc.on('exit', (code) => reject(new Error(`serve exited ${code} before listening: ${out}${err}`)));
  });
  url.catch(() => {}); // a test that expects the exit need not wait for the URL
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, url, exited, out: () => out, err: () => err };
}
