import { mkdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { emit } from '../scripts/build.mjs';

// Tests that start booty in a child process (the CLI, the crash workers) run compiled JavaScript,
// not TypeScript through tsx: tsx spends about a second of CPU on every start, and those tests
// start booty some hundred times. The build's own emit (scripts/build.mjs) turns src/ and test/
// into .test-dist/ once per run, file for file, in a fraction of a second; the layout and the
// files beside the code (SQL migrations, JSON, the seccomp filter) stay the same.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Children a test starts a hundred times or more also come as one bundled file each (under
// `bundled/`, see compiled.ts): loading one file instead of some hundred modules is about a
// third of such a child's CPU. Packages stay external, loaded from node_modules as usual.
const BUNDLED = ['test/engine/fixtures/crash-worker.ts'];

export default async function setup(project: TestProject) {
  const out = path.join(root, '.test-dist', String(process.pid));
  const staging = `${out}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  await emit({ root, dirs: ['src', 'sim', 'test'], outdir: staging, sourcemap: 'inline' });
  await build({
    entryPoints: BUNDLED.map((file) => path.join(root, file)),
    outdir: path.join(staging, 'bundled'),
    outbase: root,
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    logLevel: 'warning',
  });
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
