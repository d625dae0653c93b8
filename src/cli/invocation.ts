import fs from 'node:fs';
import path from 'node:path';

// How this booty was started, so every hint it prints is a command that runs as printed: `booty`
// when that name on PATH is this very program, `npx booty` from an installed package, else
// `node <path to bin.js>` from a checkout.

export function invocation(
  script: string | undefined = process.argv[1],
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): string {
  if (!script) return 'booty';
  const self = realpath(script);
  // npx and npm scripts put a node_modules/.bin on PATH for their run only: the user's shell
  // has no `booty` there.
  const shellPath = (env.PATH ?? '')
    .split(path.delimiter)
    .filter((d) => d && !d.endsWith(`node_modules${path.sep}.bin`));
  for (const dir of shellPath) {
    const candidate = path.join(dir, 'booty');
    if (fs.existsSync(candidate) && realpath(candidate) === self) return 'booty';
  }
  if (self.split(path.sep).includes('node_modules')) return 'npx booty';
  const relative = path.relative(cwd, self);
  const shown = relative.startsWith('..') ? self : relative;
  return `node ${shellWord(shown)}`;
}

function realpath(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/** A path as one shell word: quoted only when it has to be. */
export const shellWord = (word: string) =>
  /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;

/** booty's hints are written as `booty …`; this prints them as this booty was started. */
export const asInvoked = (text: string, self: string) =>
  self === 'booty' ? text : text.replaceAll('`booty ', `\`${self} `);
