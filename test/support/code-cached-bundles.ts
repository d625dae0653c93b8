import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

// Children a test starts some hundred times (the crash worker, `booty serve` killed after every
// event) come as one bundled file each, packages included but native addons. Compiling that file
// was then a third of such a child's CPU, so it runs as CommonJS through V8's code cache:
// `bundled/x.js` is a loader that compiles `x.cjs` with the cache beside it, and the first child to
// exit (a SIGKILL writes nothing) writes that cache, holding the functions it ran, compiled, for
// every later one. A crash worker's CPU fell from about 0.29 s to 0.18 s, and serve-child's load
// from about 0.57 s to 0.23 s. Bundled files must not use top-level await (CommonJS has none).

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

/**
 * Bundles `files` (relative to `root`) under `staging/bundled/`, for a copy that will live at `out`
 * (the compiled tree emitted file for file). Each source file's `import.meta.url` is its emitted
 * copy's, so what it finds beside itself (the seccomp filter, package.json above) is found as
 * from the emitted file; a package's is the bundle's own.
 */
export async function codeCachedBundles(options: {
  root: string;
  files: string[];
  staging: string;
  out: string;
}) {
  const { root, files, staging, out } = options;
  await build({
    entryPoints: files.map((file) => path.join(root, file)),
    outdir: path.join(staging, 'bundled'),
    outbase: root,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    external: ['better-sqlite3'],
    format: 'cjs',
    platform: 'node',
    target: 'node20.19',
    define: { 'import.meta.url': '__bundleUrl' },
    banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    plugins: [
      {
        name: 'emitted-import-meta-url',
        setup(b) {
          b.onLoad({ filter: /\.ts$/ }, (args) => {
            const emitted = path.join(out, path.relative(root, args.path)).replace(/\.ts$/, '.js');
            const url = JSON.stringify(pathToFileURL(emitted).href);
            return {
              contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', url),
              loader: 'ts',
            };
          });
        },
      },
    ],
    logLevel: 'warning',
  });
  for (const file of files) {
    const bundle = path.join(staging, 'bundled', file.replace(/\.ts$/, '.cjs'));
    writeFileSync(bundle.replace(/\.cjs$/, '.js'), loader(path.join(out, path.relative(staging, bundle))));
  }
}
