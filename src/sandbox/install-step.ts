import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import type { FileChange, RepoConfig } from '../events/effect-results.js';

// When the install step runs, and how much it is trusted. It runs when the job's workspace has
// not been installed yet, and again whenever a manifest or lockfile changed; what it prepares stays
// in the job's HOME and work tree for every later run. With the base branch's manifests it runs as
// the repository's maintainers wrote it, with network. When the model's change touched a manifest,
// a lockfile or a build script, it still gets network (to reach the package registry) but no
// lifecycle scripts: npm, yarn and pnpm skip install scripts and pip installs wheels only, and a
// build script the change wrote (setup.py, a local build backend) is refused, so nothing the model
// wrote runs while the network is there.

/** Files whose change means the dependencies must be installed again. */
const MANIFESTS = picomatch(
  [
    '**/package.json',
    '**/package-lock.json',
    '**/npm-shrinkwrap.json',
    '**/yarn.lock',
    '**/pnpm-lock.yaml',
    '**/pyproject.toml',
    '**/setup.py',
    '**/setup.cfg',
    '**/requirements*.txt',
    '**/Pipfile.lock',
    '**/poetry.lock',
    '**/uv.lock',
    'go.mod',
    'go.sum',
    '**/Cargo.toml',
    'Cargo.lock',
  ],
  { dot: true },
);

export const isManifest = (p: string) => MANIFESTS(p);

/** Lifecycle scripts off for every package manager booty knows, whatever command the repo uses. */
export const SCRIPTS_OFF: Record<string, string> = {
  npm_config_ignore_scripts: 'true',
  YARN_ENABLE_SCRIPTS: 'false',
  PIP_ONLY_BINARY: ':all:',
};

export interface InstallPlan {
  command: string;
  /** The change touched a manifest: no lifecycle scripts. */
  untrusted: boolean;
  env: Record<string, string>;
  digest: string;
}

/** A digest of the install command and every manifest the change touched or the root holds. */
async function manifestDigest(dir: string, command: string, changes: readonly FileChange[]): Promise<string> {
  const hash = createHash('sha256').update(command);
  const roots = [
    'package.json',
    'package-lock.json',
    'pyproject.toml',
    'requirements.txt',
    'go.mod',
    'go.sum',
    'Cargo.toml',
    'Cargo.lock',
  ];
  const paths = [...new Set([...roots, ...changes.map((c) => c.path).filter(isManifest)])].sort();
  for (const name of paths) {
    const content = await readFile(path.join(dir, name)).catch(() => null);
    hash.update(`\0${name}\0`).update(content ?? '-');
  }
  return hash.digest('hex');
}

/**
 * The install to run now, or null when the workspace is installed for these manifests: `installed`
 * is the digest of the last install whose output is still whole (install-record.ts), or null.
 */
export async function installPlan(
  dir: string,
  config: RepoConfig,
  changes: readonly FileChange[],
  installed: string | null,
): Promise<InstallPlan | null> {
  if (!config.install) return null;
  const digest = await manifestDigest(dir, config.install.command, changes);
  if (installed === digest) return null;
  const untrusted = changes.some((c) => isManifest(c.path));
  return { command: config.install.command, untrusted, env: untrusted ? SCRIPTS_OFF : {}, digest };
}

/** A dependency spec fetched from somewhere other than the package registry. */
const OFF_REGISTRY_NPM =
  /^(?:[a-z+]+:\/\/|git(?:\+[a-z]+)?:|github:|gitlab:|bitbucket:|gist:|[\w.-]+\/[\w.-]+(?:#.*)?$)/i;
const OFF_REGISTRY_LINE = /:\/\/|\bgit\+|^\s*git\s*=|\bgit\s*=\s*["']/;

function npmSpecs(text: string | null): Map<string, string> {
  const out = new Map<string, string>();
  try {
    const json = text ? (JSON.parse(text) as Record<string, Record<string, unknown>>) : {};
    for (const section of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']) {
      for (const [name, spec] of Object.entries(json[section] ?? {})) out.set(name, String(spec));
    }
  } catch {
    // Not JSON: npm will say so.
  }
  return out;
}

/**
 * Dependencies the change added that would be fetched from a URL or a git host rather than the
 * registry: with network during the install, such a URL can carry anything to any host.
 */
export async function offRegistryDependencies(
  changes: readonly FileChange[],
  readBase: (file: string) => Promise<string | null>,
): Promise<string[]> {
  const found: string[] = [];
  for (const change of changes) {
    if (change.content === null || !isManifest(change.path)) continue;
    const before = await readBase(change.path);
    if (path.basename(change.path) === 'package.json') {
      const old = npmSpecs(before);
      for (const [name, spec] of npmSpecs(change.content)) {
        if (old.get(name) !== spec && OFF_REGISTRY_NPM.test(spec))
          found.push(`${change.path}: ${name} ${spec}`);
      }
    } else if (!/\.lock$|lock\.json$|\.sum$/.test(change.path)) {
      const old = new Set((before ?? '').split('\n').map((l) => l.trim()));
      for (const line of change.content.split('\n').map((l) => l.trim())) {
        if (line && !line.startsWith('#') && !old.has(line) && OFF_REGISTRY_LINE.test(line)) {
          found.push(`${change.path}: ${line}`);
        }
      }
    }
  }
  return found;
}

/** Package-manager settings a test could leave in the job's HOME to redirect the next install. */
const HOME_SETTINGS = [
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.config/pip',
  '.pip',
  '.pydistutils.cfg',
  '.config/uv',
  '.config/pypoetry',
  '.gitconfig',
  '.config/git',
  '.cargo/config',
  '.cargo/config.toml',
  '.netrc',
];

/** Removes them before an install with network: the HOME's caches stay, its settings do not. */
export async function forgetHomeSettings(home: string): Promise<void> {
  for (const name of HOME_SETTINGS) await rm(path.join(home, name), { recursive: true, force: true });
}

/**
 * A build script the change wrote that the install would run with network: a setup.py, or a
 * pyproject.toml whose build backend lives in the repository (backend-path). booty refuses those.
 */
export function buildCodeChanged(changes: readonly FileChange[]): string | null {
  const hit = changes.find(
    (c) =>
      c.content !== null &&
      (c.path.endsWith('setup.py') ||
        (c.path.endsWith('pyproject.toml') && /^[^\S\n\r\u2028\u2029]*backend-path\s*=/m.test(c.content))),
  );
  return hit?.path ?? null;
}
