// The build: esbuild emits every .ts under the given roots file for file (no bundle, the layout
// kept), and copies the files the code reads from beside itself (SQL migrations, JSON, the
// sandbox's seccomp filter). Type checking is `npm run typecheck` (tsc --noEmit), run apart by CI:
// emitting through tsc took minutes on a loaded 2-core machine, esbuild takes about a second.
//   node scripts/build.mjs            src/ -> dist/src/, sim/ -> dist/sim/ (`booty demo` runs the simulators)
// The tests' compiled copy (test/global-setup.ts) calls `emit` with its own roots and folder.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ASSETS = ['.sql', '.json', '.bpf'];

function walk(root, dir, out) {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!['repos', '.deps', 'node_modules'].includes(entry.name)) walk(root, rel, out);
    } else out.push(rel);
  }
  return out;
}

/**
 * Emits `dirs` (relative to `root`) into `outdir`, keeping their paths under `outbase`, and copies
 * their assets beside the emitted code.
 */
export async function emit({ root, dirs, outdir, outbase = root, sourcemap = true }) {
  const files = dirs.flatMap((d) => walk(root, d, []));
  await build({
    entryPoints: files.filter((f) => f.endsWith('.ts')).map((f) => path.join(root, f)),
    outdir,
    outbase,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    sourcemap,
    logLevel: 'warning',
  });
  for (const file of files.filter((f) => ASSETS.includes(path.extname(f)))) {
    const to = path.join(outdir, path.relative(outbase, path.join(root, file)));
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(path.join(root, file), to);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const outdir = path.join(root, 'dist');
  fs.rmSync(outdir, { recursive: true, force: true });
  await emit({ root, dirs: ['src', 'sim'], outdir });
  fs.chmodSync(path.join(outdir, 'src/cli/bin.js'), 0o755);
}
