// Bundles the worker of an earlier booty release, for the mixed-versions test
// (test/main/mixed-versions.test.ts), so that it runs on a fresh, even shallow, clone:
//   node scripts/bundle-release-worker.mjs <commit> <name>
// takes that commit's src/ and test/support/ (git archive), puts test/fixtures/releases/
// release-worker.ts among them, and writes test/fixtures/releases/<name>/worker.mjs: one minified
// ES module whose packages stay external (resolved from this checkout's node_modules), beside
// the PostgreSQL migrations it reads from its own folder. About 0.5 MB (biome skips the folders,
// named machine-*). Re-run it at each event or machine version bump, from the commit before.
// A package the release imported and booty no longer does stays a dev dependency while a bundle
// needs it (@fastify/rate-limit, for machine-8).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const [commit, name] = process.argv.slice(2);
if (!commit || !name) {
  console.error('usage: node scripts/bundle-release-worker.mjs <commit> <name>');
  process.exit(1);
}
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tree = fs.mkdtempSync(path.join(os.tmpdir(), 'booty-release-'));
const archive = execFileSync(
  'git',
  ['archive', '--format=tar', commit, 'src', 'test/support', 'package.json'],
  {
    cwd: root,
    maxBuffer: 1 << 28,
  },
);
execFileSync('tar', ['-x', '-C', tree], { input: archive });
const entry = path.join(tree, 'test/fixtures/releases/release-worker.ts');
fs.mkdirSync(path.dirname(entry), { recursive: true });
fs.copyFileSync(path.join(root, 'test/fixtures/releases/release-worker.ts'), entry);

const out = path.join(root, 'test/fixtures/releases', name);
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
await build({
  entryPoints: [entry],
  outfile: path.join(out, 'worker.mjs'),
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  keepNames: true,
  legalComments: 'none',
  banner: { js: `// booty's worker at ${commit}, bundled by scripts/bundle-release-worker.mjs` },
});
fs.cpSync(path.join(tree, 'src/store/postgres/migrations'), path.join(out, 'migrations'), {
  recursive: true,
});
fs.writeFileSync(
  path.join(out, 'COMMIT'),
  `${execFileSync('git', ['rev-parse', commit], { cwd: root }).toString().trim()}\n`,
);
fs.rmSync(tree, { recursive: true, force: true });
const bytes = fs.statSync(path.join(out, 'worker.mjs')).size;
console.log(`wrote ${path.relative(root, out)}/worker.mjs (${(bytes / 1024).toFixed(0)} KiB) from ${commit}`);
