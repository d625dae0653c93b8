import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The unit tier's guard fails a test that broke the rule even when the test's code caught the
// guard's error: a child Vitest runs one such test under the guard (fixtures/unit-tier/).

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
const config = path.join(import.meta.dirname, 'fixtures', 'unit-tier', 'vitest.config.ts');

describe('the unit tier', () => {
  it('fails a unit test that started a process, though its code caught the error', async () => {
    const { FORCE_COLOR: _, ...env } = process.env;
    const child = run(process.execPath, [vitest, 'run', '--config', config], {
      cwd: root,
      env: { ...env, NO_COLOR: '1' },
    });
    const result = await child.then(
      (r) => ({ code: 0, out: r.stdout + r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
    );
    expect(result.code).toBe(1);
    expect(result.out).toContain('hides-a-process.fixture.ts > starts git and catches the error');
    expect(result.out).toContain(
      'Error: BOOTY unit tier: child_process.execFileSync("git") in a *.unit.test.ts file.',
    );
    expect(result.out).toMatch(/Tests\s+1 failed \(1\)/);
  }, 60_000);
});
