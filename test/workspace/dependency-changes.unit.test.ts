import { describe, expect, it } from 'vitest';
import { dependencyChanges } from '../../src/workspace/dependency-changes.js';

describe('dependencyChanges', () => {
  const base: Record<string, string> = {
    'package.json': JSON.stringify({
      name: 'x',
      dependencies: { left: '^1.0.0', pad: '1.0.0' },
      scripts: { test: 'node --test' },
    }),
    'requirements.txt': '# pinned\nrequests==2.31.0\nflask==3.0.0\n',
    'src/a.js': 'x',
  };
  const readBase = async (file: string) => base[file] ?? null;

  it('names added, removed and changed packages, manifest lines and lockfiles', async () => {
    const changes = [
      {
        path: 'package.json',
        content: JSON.stringify({
          name: 'x',
          dependencies: { left: '^2.0.0' },
          devDependencies: { evil: 'file:./vendor/evil' },
        }),
      },
      { path: 'requirements.txt', content: '# pinned\nrequests==2.32.0\nflask==3.0.0\n' },
      { path: 'package-lock.json', content: '{}' },
      { path: 'src/a.js', content: 'y' },
    ];
    expect(await dependencyChanges(changes, readBase)).toEqual([
      {
        file: 'package.json',
        lines: [
          '~ left ^1.0.0 (dependencies) → ^2.0.0 (dependencies)',
          '+ evil file:./vendor/evil (devDependencies)',
          '- pad 1.0.0 (dependencies)',
        ],
      },
      { file: 'requirements.txt', lines: ['+ requests==2.32.0', '- requests==2.31.0'] },
      { file: 'package-lock.json', lines: ['added'] },
    ]);
  });

  it('says nothing of a manifest whose dependencies did not change', async () => {
    const scripts = JSON.stringify({
      name: 'x',
      dependencies: { left: '^1.0.0', pad: '1.0.0' },
      scripts: { test: 'vitest' },
    });
    expect(await dependencyChanges([{ path: 'package.json', content: scripts }], readBase)).toEqual([]);
  });
});
