import { mkdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { emit } from '../scripts/build.mjs';
import { codeCachedBundles } from './support/code-cached-bundles.js';

// Tests that start booty in a child process (the CLI, the crash workers) run compiled JavaScript,
// not TypeScript through tsx: tsx spends about a second of CPU on every start, and those tests
// start booty some hundred times. The build's own emit (scripts/build.mjs) turns src/ and test/
// into .test-dist/ once per run, file for file, in a fraction of a second; the layout and the
// files beside the code (SQL migrations, JSON, the seccomp filter) stay the same.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Children a test starts some hundred times come as one bundled file each, run through V8's code
// cache (code-cached-bundles.ts; compiled.ts's `bundled`). Only the system tier starts them: the
// bundling takes some seconds of the run's start, so the timed tier's copy has none.
const BUNDLED = ['test/engine/fixtures/crash-worker.ts', 'test/e2e/fixtures/serve-child.ts'];

export default async function setup(project: TestProject) {
  // One copy per project: each project sets up and tears down its own (the timed one runs last).
  const out = path.join(root, '.test-dist', `${process.pid}-${project.name}`);
  const staging = `${out}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  await Promise.all([
    emit({ root, dirs: ['src', 'sim', 'test'], outdir: staging, sourcemap: 'inline' }),
    project.name === 'system' && codeCachedBundles({ root, files: BUNDLED, staging, out }),
  ]);
  mkdirSync(staging, { recursive: true });
  symlinkSync(path.join(root, 'examples'), path.join(staging, 'examples'));
  rmSync(out, { recursive: true, force: true });
  renameSync(staging, out);
  project.provide('compiled', out);
  return () => rmSync(out, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    compiled: string;
  }
}
