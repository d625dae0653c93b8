import { cpSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';

// Tests that start booty in a child process (the CLI, the crash workers) run compiled JavaScript,
// not TypeScript through tsx: tsx spends about a second of CPU on every start, and those tests
// start booty some hundred times. esbuild turns src/ and test/ into .test-dist/ once per run, file
// for file, in a fraction of a second; the layout and the files beside the code stay the same.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function sources(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!['repos', '.deps', 'node_modules'].includes(entry.name)) sources(rel, out);
    } else if (entry.name.endsWith('.ts')) out.push(rel);
  }
  return out;
}

export default async function setup(project: TestProject) {
  const out = path.join(root, '.test-dist', String(process.pid));
  const staging = `${out}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  await build({
    entryPoints: [...sources('src'), ...sources('test')].map((f) => path.join(root, f)),
    outdir: staging,
    outbase: root,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  // What the code finds beside itself: the OpenAPI subset next to the simulator, the PostgreSQL
  // store's migrations (SQL files), the sandbox's seccomp filter, the examples.
  for (const dir of ['src/simulators/openapi', 'src/store/postgres/migrations', 'src/sandbox/seccomp']) {
    cpSync(path.join(root, dir), path.join(staging, dir), { recursive: true });
  }
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
