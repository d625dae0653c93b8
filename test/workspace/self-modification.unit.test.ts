import { describe, expect, it } from 'vitest';
import type { RepoConfig } from '../../src/events/effect-results.js';
import { selfConfigChanges, selfModificationConfig } from '../../src/workspace/self-modification.js';

// What a change to booty itself must show its reviewer, and the checks it must pass.

describe('selfConfigChanges', () => {
  it('names the workflows and config among the changed paths, sorted, and nothing else', () => {
    expect(
      selfConfigChanges([
        'src/app.ts',
        'tsconfig.json',
        '.github/workflows/ci.yml',
        'package.json',
        'biome.json',
        'test/package.json',
        'tsconfig.build.json',
        'README.md',
        '.github/booty.yml',
        'vitest.config.ts',
        'docs/tsconfig.md',
      ]),
    ).toEqual([
      '.github/booty.yml',
      '.github/workflows/ci.yml',
      'biome.json',
      'package.json',
      'tsconfig.build.json',
      'tsconfig.json',
      'vitest.config.ts',
    ]);
  });
});

describe('selfModificationConfig', () => {
  const config = (commands?: string[]) => ({ quality: commands && { commands } }) as unknown as RepoConfig;

  it("gives a config that names no quality commands booty's own lint and typecheck", () => {
    expect(selfModificationConfig(config([])).quality).toEqual({
      commands: ['npm run lint', 'npm run typecheck'],
    });
    expect(selfModificationConfig(config()).quality).toEqual({
      commands: ['npm run lint', 'npm run typecheck'],
    });
  });

  it('keeps the quality commands a config names', () => {
    expect(selfModificationConfig(config(['npm run check'])).quality).toEqual({
      commands: ['npm run check'],
    });
  });
});
