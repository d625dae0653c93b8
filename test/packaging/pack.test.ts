import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/job-harness.js';

// booty as a new team gets it: `npm pack` of the checkout's files (as a clean clone has them,
// built by prepack), installed into an empty directory, then `npx booty`. The checkout's own
// dist/ is never touched: other tests run from it. Install scripts are skipped and the one native
// module is copied from this checkout, because its compile takes a minute and is
// better-sqlite3's to prove, not booty's; everything else comes from the tarball's dependencies.

const exec = promisify(execFile);
const repo = path.resolve(import.meta.dirname, '../..');
const npm = (args: string[], cwd: string) =>
  exec('npm', [...args, '--no-audit', '--no-fund'], { cwd, maxBuffer: 20 * 1024 * 1024 });

async function cleanClone(): Promise<string> {
  const dir = tempDir('booty-clone-');
  const { stdout } = await exec('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repo,
    maxBuffer: 20 * 1024 * 1024,
  });
  for (const file of stdout.split('\0').filter(Boolean)) {
    if (!fs.existsSync(path.join(repo, file))) continue; // deleted, not yet committed
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.copyFileSync(path.join(repo, file), path.join(dir, file));
  }
  // The build needs the dev dependencies (tsc, types): the checkout's, read-only.
  fs.symlinkSync(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

describe('the npm package', () => {
  it('packs dist without sources, installs into an empty directory, and `npx booty demo` promotes', async () => {
    const clone = await cleanClone();
    const packed = tempDir('booty-pack-');
    await npm(['pack', '--pack-destination', packed], clone);
    const tarball = fs.readdirSync(packed).find((f) => f.endsWith('.tgz'))!;
    const { stdout: listing } = await exec('tar', ['tzf', path.join(packed, tarball)]);
    const files = listing.trim().split('\n');
    expect(files).toContain('package/dist/src/cli/bin.js');
    expect(files).toContain('package/examples/sample-repo/package.json');
    expect(files).toContain('package/dist/sim/github/openapi/api.github.com.subset.json');
    // The PostgreSQL migrations are SQL files beside the compiled code, copied there by the build.
    expect(files).toContain('package/dist/src/store/postgres/migrations/001-init.sql');
    // So is the sandbox's seccomp filter, which bubblewrap loads.
    expect(files).toContain('package/dist/src/sandbox/seccomp/filter.bpf');
    // The license package.json names, and the version `booty --version` reads.
    expect(files).toContain('package/LICENSE');
    // The built-in eval tasks, which `booty eval --builtin` reads from the package's root.
    expect(files).toContain('package/eval/builtin.jsonl');
    expect(files.filter((f) => /^package\/(src|test|bench)\//.test(f) || f.endsWith('.map'))).toEqual([]);

    const app = tempDir('booty-installed-');
    fs.writeFileSync(path.join(app, 'package.json'), '{ "name": "adopter", "private": true }\n');
    await npm(['install', '--prefer-offline', '--ignore-scripts', path.join(packed, tarball)], app);
    const native = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
    fs.mkdirSync(path.dirname(path.join(app, native)), { recursive: true });
    fs.copyFileSync(path.join(repo, native), path.join(app, native));

    // What the installed CLI is asked is independent, so asked at once: its help, its version, the
    // demo and its replay, and an eval.
    const run = (args: string[]) =>
      exec('npx', ['booty', ...args], { cwd: app, maxBuffer: 10 * 1024 * 1024 });
    await Promise.all([
      run(['--help']).then((help) =>
        expect(help.stdout).toMatch(/^booty: turns a labeled GitHub issue into a tested pull request\./),
      ),
      run(['--version']).then((version) =>
        expect(version.stdout).toBe(
          `booty ${JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')).version}\n`,
        ),
      ),
      run(['demo', '--scenario', 'pass', '--dir', path.join(app, 'demo')]).then(async (demo) => {
        expect(demo.stdout).toMatch(/✓ job \S+: promoted after 1 attempt of 3/);
        // The hint names booty as this user can run it: through npx, not a `booty` they do not have.
        const hint = demo.stdout.split('\n').find((l) => l.includes('replay it:'))!;
        expect(hint).toMatch(/replay it: npx booty replay \S+ --db \S+booty\.db$/);
        const replay = await exec('sh', ['-c', hint.replace(/^\s*replay it: /, '')], { cwd: app });
        expect(replay.stdout).toContain('promoted');
      }),
      // The installed CLI finds its built-in eval tasks: one Python task with the null model.
      run([
        'eval',
        '--builtin',
        '--null',
        '--only',
        'cachetools-descriptor-none',
        '--dir',
        path.join(app, 'eval'),
      ]).then((evalRun) => expect(evalRun.stdout).toMatch(/booty eval: 0 of 1 resolved/)),
    ]);
  }, 240_000); // a build, a pack and an install: about 50 s with the suite running beside it on 2 cores
});
