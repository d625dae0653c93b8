import picomatch from 'picomatch';
import type { RepoConfig } from '../events/effect-results.js';

// A job on booty's own repository changes the program that judges it. Its quality commands are
// therefore required: when booty.yml names none, booty's own lint and typecheck run (its
// package.json defines both, and the test command's install already put their tools in place).
// Such a job is never promoted (a human reviews it), so running them costs one draft's worth of
// checks and hands the human a draft that already lints and typechecks; refusing instead would
// only have ended every attempt in the same refusal. And a change to what builds, checks or runs
// booty (its workflows and config) is named in the PR body, where the reviewer cannot miss it.

export const SELF_QUALITY_COMMANDS = ['npm run lint', 'npm run typecheck'] as const;

/** The config a self-modification runs with: its own quality commands, or booty's. */
export function selfModificationConfig(config: RepoConfig): RepoConfig {
  if ((config.quality?.commands ?? []).length > 0) return config;
  return { ...config, quality: { commands: [...SELF_QUALITY_COMMANDS] } };
}

/** What steers how booty is built, checked, released or run. */
export const SELF_CONFIG_PATHS = [
  '.github/**',
  '.booty.yml',
  'package.json',
  'npm-shrinkwrap.json',
  'package-lock.json',
  '.npmrc',
  '.nvmrc',
  'tsconfig*.json',
  'biome.json',
  'biome.jsonc',
  'vitest.config.*',
  'Dockerfile',
];

const isSelfConfig = picomatch(SELF_CONFIG_PATHS, { dot: true });

/** The changed paths among booty's workflows and config, sorted. */
export function selfConfigChanges(paths: readonly string[]): string[] {
  return paths.filter((p) => isSelfConfig(p)).sort();
}
