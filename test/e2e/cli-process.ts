import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { compiled } from '../support/compiled.js';

// The real CLI in its own process, as a user runs it: the compiled bin under plain `node`.

export const exec = promisify(execFile);
export const bootyBin = () => compiled('src/cli/bin.ts');

/** Runs booty to its end: its exit code and what it wrote, a failing exit included. */
export async function booty(args: string[]) {
  try {
    const { stdout, stderr } = await exec(process.execPath, [bootyBin(), ...args], {
      maxBuffer: 10 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

export const lastJson = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!);

/** `booty demo --json` run to a clean end (exit 0, nothing on stderr): its summary. */
export async function demoJson(scenario: string, dir: string) {
  const run = await booty(['demo', '--scenario', scenario, '--dir', dir, '--json']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return lastJson(run.stdout);
}

/** `booty demo` started in the background, its output piped, to be killed part way. */
export const startDemo = (scenario: string, dir: string) =>
  spawn(process.execPath, [bootyBin(), 'demo', '--scenario', scenario, '--dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });

/** Kills the child once its output so far is `seen`; rejects if it ends before that. */
export function killWhen(child: ChildProcess, seen: (stdout: string) => boolean): Promise<void> {
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (seen(out)) child.kill('SIGKILL');
    });
    child.on('exit', (_code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error(`the demo ended before it was killed:\n${out}`)),
    );
  });
}
