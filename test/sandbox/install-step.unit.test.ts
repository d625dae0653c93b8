import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { forgetHomeSettings, installPlan, offRegistryDependencies } from '../../src/sandbox/install-step.js';
import { tempDir } from '../support/job-harness.js';

// Installing without trusting the model: what a change to the manifests may make booty fetch, and
// what a test may have left in the job's HOME for the next install.

describe('offRegistryDependencies', () => {
  const base: Record<string, string> = {
    'package.json': JSON.stringify({ dependencies: { old: 'https://example.test/old.tgz', left: '^1.0.0' } }),
    'requirements.txt': 'requests==2.31.0\n',
  };
  const readBase = async (file: string) => base[file] ?? null;

  it('names dependencies the change added from a URL or a git host, and nothing from the registry', async () => {
    const pkg = JSON.stringify({
      dependencies: {
        old: 'https://example.test/old.tgz', // already there: the change did not add it
        left: '^2.0.0',
        alias: 'npm:left@^2.0.0',
        local: 'file:./vendor/local',
        tarball: 'https://evil.test/x.tgz',
        shorthand: 'someone/repo',
      },
      devDependencies: { hosted: 'github:someone/repo#main', viaGit: 'git+ssh://git@evil.test/x.git' },
    });
    const requirements =
      'requests==2.32.0\nevil @ https://evil.test/evil.whl\ngit+https://evil.test/x.git#egg=x\n';
    expect(
      await offRegistryDependencies(
        [
          { path: 'package.json', content: pkg },
          { path: 'requirements.txt', content: requirements },
          { path: 'src/index.js', content: 'https://not.a/manifest' },
        ],
        readBase,
      ),
    ).toEqual([
      'package.json: tarball https://evil.test/x.tgz',
      'package.json: shorthand someone/repo',
      'package.json: hosted github:someone/repo#main',
      'package.json: viaGit git+ssh://git@evil.test/x.git',
      'requirements.txt: evil @ https://evil.test/evil.whl',
      'requirements.txt: git+https://evil.test/x.git#egg=x',
    ]);
  });
});

describe('installPlan', () => {
  it('installs a new workspace as the repository says, and again without scripts after the change touches a manifest', async () => {
    const dir = tempDir('booty-install-');
    fs.mkdirSync(path.join(dir, '.git'));
    fs.writeFileSync(path.join(dir, 'package.json'), '{}');
    const config = {
      source: 'file' as const,
      path: null,
      test: { command: 'npm test' },
      install: { command: 'npm install' },
      timeoutSeconds: 60,
      maxAttempts: 3,
      protectedPaths: [],
      sandbox: null,
    };
    const first = await installPlan(dir, config, [{ path: 'src/a.js', content: 'x' }], null);
    expect(first).toMatchObject({ untrusted: false, env: {} });
    expect(await installPlan(dir, config, [{ path: 'src/a.js', content: 'x' }], first!.digest)).toBeNull();

    fs.writeFileSync(path.join(dir, 'package.json'), '{"dependencies":{"left":"1.0.0"}}');
    const changed = await installPlan(dir, config, [{ path: 'package.json', content: '{}' }], first!.digest);
    expect(changed).toMatchObject({ untrusted: true, env: { npm_config_ignore_scripts: 'true' } });
  });
});

describe('forgetHomeSettings', () => {
  it('removes package-manager settings a test left, and keeps the caches', async () => {
    const home = tempDir('booty-home-');
    for (const f of [
      '.npmrc',
      '.config/pip/pip.conf',
      '.cargo/config.toml',
      '.gitconfig',
      '.npm/_cacache/x',
      '.cargo/registry/x',
    ]) {
      fs.mkdirSync(path.dirname(path.join(home, f)), { recursive: true });
      fs.writeFileSync(path.join(home, f), 'x');
    }
    await forgetHomeSettings(home);
    const left = [
      '.npmrc',
      '.config/pip',
      '.cargo/config.toml',
      '.gitconfig',
      '.npm/_cacache/x',
      '.cargo/registry/x',
    ].filter((f) => fs.existsSync(path.join(home, f)));
    expect(left).toEqual(['.npm/_cacache/x', '.cargo/registry/x']);
  });
});
