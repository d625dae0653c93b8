import { existsSync, readdirSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The language toolchains a test needs that live outside the system directories: pyenv, rustup
// and cargo's proxies, nvm, a Go or Java home. booty finds them from its own PATH and environment
// and binds them read-only into the sandbox, with the few variables that locate them. A PATH entry
// that holds no known tool is not bound: a directory of the operator's scripts stays outside.
// The operator adds anything else with BOOTY_SANDBOX_RO_PATHS.

export interface Toolchains {
  /** Directories to bind read-only. */
  paths: string[];
  /** Variables the toolchains need inside (e.g. RUSTUP_HOME), and the PATH to search. */
  env: Record<string, string>;
}

const SYSTEM = /^\/(?:usr|bin|sbin|lib|lib32|lib64|libx32)(?:\/|$)/;

/** Programs whose directory is worth binding: a test command runs one of these. */
const TOOLS = [
  'node',
  'npm',
  'npx',
  'yarn',
  'pnpm',
  'bun',
  'deno',
  'python',
  'python3',
  'pip',
  'pip3',
  'pytest',
  'tox',
  'uv',
  'poetry',
  'pyenv',
  'go',
  'cargo',
  'rustc',
  'rustup',
  'java',
  'javac',
  'mvn',
  'gradle',
  'ruby',
  'bundle',
  'make',
];

/** Version managers whose shims or bin folder only work with their whole root. */
const MANAGER_ROOTS = [
  { marker: 'versions', names: ['.pyenv', '.rbenv', '.nodenv', '.goenv'] },
  { marker: 'installs', names: ['.asdf'] },
  { marker: 'versions', names: ['.nvm'] },
];

const real = (p: string) => {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
};

function holdsTool(dir: string): boolean {
  try {
    const names = new Set(readdirSync(dir));
    return TOOLS.some((t) => names.has(t));
  } catch {
    return false;
  }
}

/** The version manager's root for a shims or bin directory inside it, if it is one. */
function managerRoot(dir: string): string | null {
  for (let at = dir; at !== path.dirname(at); at = path.dirname(at)) {
    const base = path.basename(at);
    if (MANAGER_ROOTS.some((m) => m.names.includes(base) && existsSync(path.join(at, m.marker)))) return at;
  }
  return null;
}

export function detectToolchains(
  parent: NodeJS.ProcessEnv = process.env,
  extra: readonly string[] = [],
  home = os.homedir(),
): Toolchains {
  const paths = new Set<string>();
  const env: Record<string, string> = { PATH: parent.PATH ?? '/usr/local/bin:/usr/bin:/bin' };
  for (const entry of (parent.PATH ?? '').split(':')) {
    const dir = entry && real(entry);
    if (!dir || SYSTEM.test(dir) || !holdsTool(dir)) continue;
    const root = managerRoot(dir);
    paths.add(root ?? dir);
    // A tool that is a symlink into its install (nvm, a Go tarball) needs that install too.
    for (const tool of TOOLS) {
      const target = real(path.join(dir, tool));
      if (target && !SYSTEM.test(target) && !target.startsWith(`${root ?? dir}/`)) {
        paths.add(managerRoot(target) ?? path.dirname(path.dirname(target)));
      }
    }
  }
  const homes: [string, string | undefined][] = [
    ['PYENV_ROOT', parent.PYENV_ROOT],
    ['RUSTUP_HOME', parent.RUSTUP_HOME ?? path.join(home, '.rustup')],
    ['RUSTUP_TOOLCHAIN', undefined],
    ['GOROOT', parent.GOROOT],
    ['JAVA_HOME', parent.JAVA_HOME],
    ['NVM_DIR', parent.NVM_DIR],
  ];
  for (const [name, value] of homes) {
    const dir = value && real(value);
    if (!dir) continue;
    env[name] = dir;
    if (!SYSTEM.test(dir)) paths.add(dir);
  }
  if (parent.RUSTUP_TOOLCHAIN) env.RUSTUP_TOOLCHAIN = parent.RUSTUP_TOOLCHAIN;
  for (const p of extra) {
    const dir = real(p);
    if (dir) paths.add(dir);
  }
  return { paths: [...paths].sort(), env };
}
