import { existsSync } from 'node:fs';
import path from 'node:path';

// The test command's whole environment. An allowlist, not a denylist: a secret added to booty's
// environment tomorrow still never reaches generated code. What the install step put under the
// job's HOME (a virtualenv, `pip --user`, cargo and go binaries) comes first on PATH, and colour
// is switched off at the source so output stays plain text.

/** Where installed tools land under a HOME, searched before the system's. */
const HOME_BINS = ['.venv/bin', '.local/bin', '.cargo/bin', 'go/bin', '.npm-global/bin'];

export function safeEnv(
  home: string,
  toolchain: Record<string, string> = { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin' },
): Record<string, string> {
  const bins = HOME_BINS.map((b) => path.join(home, b)).filter((b) => existsSync(b));
  const env: Record<string, string> = {
    ...toolchain,
    PATH: [...bins, toolchain.PATH ?? '/usr/local/bin:/usr/bin:/bin'].join(':'),
    HOME: home,
    CI: '1',
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    TERM: 'dumb',
  };
  const venv = path.join(home, '.venv');
  if (existsSync(path.join(venv, 'bin', 'python'))) env.VIRTUAL_ENV = venv;
  return env;
}
