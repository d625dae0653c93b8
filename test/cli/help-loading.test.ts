import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { compiled } from '../support/compiled.js';
import { tempDir } from '../support/job-harness.js';

// `booty --help` is the first thing a new user runs, and scripts run it to check booty is there:
// it loads the dispatcher and nothing else, not a command, not the settings' schemas (zod alone
// was 95 modules and most of its time).

const exec = promisify(execFile);

/** The modules of booty and of its packages a run of the compiled CLI loads, by a loader hook. */
async function modulesLoaded(args: string[]): Promise<{ stdout: string; modules: string[] }> {
  const dir = tempDir('booty-help-loading-');
  // The hook appends to a file: on node 20 it runs on a thread of its own, whose stderr may be lost.
  const list = path.join(dir, 'loaded.txt');
  const hooks = path.join(dir, 'hooks.mjs');
  fs.writeFileSync(
    hooks,
    `import fs from 'node:fs';\nexport async function load(url, context, next) { if (url.startsWith('file:')) fs.appendFileSync(${JSON.stringify(list)}, url + '\\n'); return next(url, context); }\n`,
  );
  const register = path.join(dir, 'register.mjs');
  fs.writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  const root = inject('compiled');
  const { stdout } = await exec(
    process.execPath,
    ['--import', register, compiled('src/cli/bin.ts'), ...args],
    {
      env: { PATH: process.env.PATH },
    },
  );
  const modules = fs
    .readFileSync(list, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((url) => {
      const file = fileURLToPath(url);
      const pkg = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
      return pkg ? `package ${pkg[1]}` : path.relative(root, file);
    });
  return { stdout, modules: [...new Set(modules)].sort() };
}

describe('booty --help', () => {
  it('loads only the dispatcher: no command, no package, no settings schema', async () => {
    const { stdout, modules } = await modulesLoaded(['--help']);
    expect(stdout).toContain('Usage: booty <command>');
    expect(modules).toEqual([
      'src/cli/bin.js',
      'src/cli/command.js',
      'src/cli/invocation.js',
      'src/cli/main.js',
      'src/env-sources.js',
      'src/errors.js',
      'src/main/lean-start.js',
    ]);
  });

  it('a command loads its own modules and the settings when it runs (the hook sees them)', async () => {
    const { modules } = await modulesLoaded(['machine', '--json']);
    expect(modules).toContain('src/cli/machine-command.js');
    expect(modules).toContain('package zod');
  });
});
