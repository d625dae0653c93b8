import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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
// `bundled/`, see compiled.ts), packages included but native addons: compiling that file was then
// a third of such a child's CPU, so it runs as CommonJS through V8's code cache. `bundled/x.js` is
// a loader: it compiles `x.cjs` with the cache beside it, and the first child to end normally
// writes that cache (with the functions it ran compiled) for every later one. A child's CPU fell
// from about 0.29 s to 0.18 s. The bundled files must not use top-level await (CommonJS).
const BUNDLED = ['test/engine/fixtures/crash-worker.ts'];

const loader = (bundle: string) => `import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import vm from 'node:vm';
const file = ${JSON.stringify(bundle)};
const cache = \`\${file}.v8cache\`;
let cachedData;
try { cachedData = fs.readFileSync(cache); } catch {}
const script = new vm.Script(Module.wrap(fs.readFileSync(file, 'utf8')), { filename: file, cachedData });
if (!cachedData || script.cachedDataRejected)
  process.once('exit', () => {
    const tmp = \`\${cache}.\${process.pid}\`;
    fs.writeFileSync(tmp, script.createCachedData());
    fs.renameSync(tmp, cache);
  });
const mod = { exports: {} };
script.runInThisContext()(mod.exports, createRequire(file), mod, file, ${JSON.stringify(path.dirname(bundle))});
`;

export default async function setup(project: TestProject) {
  // One copy per project: each project sets up and tears down its own (the timed one runs last).
  const out = path.join(root, '.test-dist', `${process.pid}-${project.name}`);
  const staging = `${out}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  await emit({ root, dirs: ['src', 'sim', 'test'], outdir: staging, sourcemap: 'inline' });
  await build({
    entryPoints: BUNDLED.map((file) => path.join(root, file)),
    outdir: path.join(staging, 'bundled'),
    outbase: root,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    external: ['better-sqlite3'],
    format: 'cjs',
    platform: 'node',
    target: 'node20.19',
    // CommonJS has no import.meta: the bundle's own URL stands in (createRequire takes it).
    define: { 'import.meta.url': '__bundleUrl' },
    banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    logLevel: 'warning',
  });
  for (const file of BUNDLED) {
    const bundle = path.join(staging, 'bundled', file.replace(/\.ts$/, '.cjs'));
    writeFileSync(bundle.replace(/\.cjs$/, '.js'), loader(bundle.replace(staging, out)));
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
