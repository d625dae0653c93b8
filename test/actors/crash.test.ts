import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { compiled } from '../support/compiled.js';
import { tempDir } from '../support/job-harness.js';

// A real process runs a job and dies by SIGKILL after event k, for every k; a new process on the
// same database finishes it. The log must make the crash invisible in the outcome and in the
// effects: completed ones never run again, the one in flight runs at most once more.

const worker = () => compiled('test/actors/fixtures/crash-worker.ts');
const run = promisify(execFile);

interface Result {
  value: string;
  attempt: number;
  outcome: unknown;
  events: number;
}

async function runWorker(dir: string, env: Record<string, string> = {}): Promise<Result | 'killed'> {
  try {
    const { stdout } = await run(
      process.execPath,
      [worker(), path.join(dir, 'booty.db'), path.join(dir, 'calls.log')],
      {
        env: { ...process.env, ...env },
      },
    );
    return JSON.parse(stdout.trim().split('\n').pop()!);
  } catch (err) {
    if ((err as { signal?: string }).signal === 'SIGKILL') return 'killed';
    throw err;
  }
}

const countCalls = (dir: string) => {
  const counts = new Map<string, number>();
  for (const line of fs.readFileSync(path.join(dir, 'calls.log'), 'utf8').split('\n').filter(Boolean)) {
    const key = line.split(':').slice(1).join(':');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
};

async function inPairs<T>(items: T[], fn: (t: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += 2) await Promise.all(items.slice(i, i + 2).map(fn));
}

describe('crash safety', () => {
  it('finishes identically after a SIGKILL at every event, re-running only the effect in flight', async () => {
    const cleanDir = tempDir();
    const clean = await runWorker(cleanDir);
    if (clean === 'killed') throw new Error('the uninterrupted run was killed');
    expect(clean.value).toBe('promoted');
    expect(clean.attempt).toBe(2);
    const cleanCalls = countCalls(cleanDir);

    const cases = Array.from({ length: clean.events - 1 }, (_, i) => i + 1).flatMap((k) => [
      { k, mode: 'boundary' },
      { k, mode: 'effect' },
    ]);
    const failures: string[] = [];
    await inPairs(cases, async ({ k, mode }) => {
      const dir = tempDir();
      const first = await runWorker(dir, { KILL_AT: String(k), KILL_MODE: mode });
      const second = await runWorker(dir);
      const label = `kill after event ${k} (${mode})`;
      if (first !== 'killed') failures.push(`${label}: the process was not killed`);
      if (second === 'killed' || second.value !== clean.value || second.attempt !== clean.attempt) {
        failures.push(`${label}: ended ${JSON.stringify(second)}`);
        return;
      }
      if (JSON.stringify(second.outcome) !== JSON.stringify(clean.outcome))
        failures.push(`${label}: outcome ${JSON.stringify(second.outcome)}`);
      // A kill inside an effect may swallow a scripted transient failure, so only the boundary
      // case must log exactly the same number of events.
      if (mode === 'boundary' && second.events !== clean.events)
        failures.push(`${label}: ${second.events} events`);
      const calls = countCalls(dir);
      const extra = [...calls]
        .filter(([key, n]) => n > (cleanCalls.get(key) ?? 0))
        .map(([key, n]) => `${key}×${n - (cleanCalls.get(key) ?? 0)}`);
      const missing = [...cleanCalls].filter(([key, n]) => (calls.get(key) ?? 0) < n);
      if (missing.length) failures.push(`${label}: effects never ran: ${missing.map(([key]) => key)}`);
      // At the boundary no effect had started: nothing may run twice. Inside an effect, only it may.
      const allowed = mode === 'boundary' ? 0 : 1;
      if (extra.length > allowed || extra.some((e) => !e.endsWith('×1')))
        failures.push(`${label}: re-ran ${extra.join(', ')}`);
    });
    expect(failures).toEqual([]);
  }, 300_000);
});
