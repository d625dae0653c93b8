import fs from 'node:fs';
import path from 'node:path';
import { ENV_ALIASES } from '../env-sources.js';
import { BootyError } from '../errors.js';

// Writes a new App's settings to a .env file, as Probot's setup does: Probot's names, one per line,
// the PEM on one line with \n. An existing file is kept unless forced; forced, only the App's
// settings are replaced (under every name booty reads them by) and the rest of the file stays.

export type Settings = Record<string, string>;

/** `NAME="value"` with the escapes a .env reader undoes (node, dotenv, docker compose). */
const line = (name: string, value: string) =>
  /^[\w@%+=:,./-]*$/.test(value)
    ? `${name}=${value}`
    : `${name}="${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

/** Every name a setting is read by: booty's own and Probot's. */
function namesOf(setting: string): string[] {
  const aliases = Object.entries(ENV_ALIASES);
  const booty = (ENV_ALIASES as Record<string, string>)[setting] ?? setting;
  return [booty, ...aliases.filter(([, b]) => b === booty).map(([alias]) => alias)];
}

/** The lines of `text` that set none of `names`, a quoted value running over lines included. */
function withoutSettings(text: string, names: Set<string>): string[] {
  const kept: string[] = [];
  let skipping = false;
  for (const l of text.split('\n')) {
    if (skipping) {
      if (/(^|[^\\])"\s*$/.test(l)) skipping = false;
      continue;
    }
    const m = /^\s*(?:export\s+)?([A-Za-z_][\w]*)\s*=\s*(.*)$/.exec(l);
    if (m && names.has(m[1]!)) {
      const value = m[2]!;
      // An opening double quote without its closing one on this line: the value goes on.
      skipping = value.startsWith('"') && !/^"(?:[^"\\]|\\.)*"/.test(value);
      continue;
    }
    kept.push(l);
  }
  while (kept.length && kept.at(-1)!.trim() === '') kept.pop();
  return kept;
}

export function writeEnvFile(input: {
  file: string;
  settings: Settings;
  header: string[];
  force: boolean;
  /** More settings the new ones make stale (a key file, when the key is written inline). */
  stale?: string[];
}) {
  const { file, settings } = input;
  let existing: string | null = null;
  try {
    existing = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw cannotWrite(file, err);
  }
  if (existing !== null && !input.force) throw exists(file);
  const replaced = new Set([...Object.keys(settings), ...(input.stale ?? [])].flatMap(namesOf));
  const kept = existing === null ? [] : withoutSettings(existing, replaced);
  const block = [
    ...input.header.map((h) => `# ${h}`),
    ...Object.entries(settings).map(([k, v]) => line(k, v)),
  ];
  const text = `${[...kept, ...(kept.length ? [''] : []), ...block].join('\n')}\n`;
  // Written beside and renamed into place, readable by its owner only: it holds the App's key.
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    fs.writeFileSync(tmp, text, { mode: 0o600, flag: 'w' });
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw cannotWrite(file, err);
  }
}

/** Refused before anything is asked of GitHub, so no App is made whose settings have nowhere to go. */
export function checkWritable(file: string, force: boolean) {
  if (fs.existsSync(file) && !force) throw exists(file);
  try {
    fs.accessSync(path.dirname(file), fs.constants.W_OK);
  } catch (err) {
    throw cannotWrite(file, err);
  }
}

const exists = (file: string) =>
  new BootyError('BOOTY_E_USAGE', {
    command: 'app',
    reason: `${file} exists; booty will not overwrite it: pass --force to replace its App settings (the rest stays), or --env PATH to write another file`,
  });

const cannotWrite = (file: string, err: unknown) =>
  new BootyError('BOOTY_E_USAGE', {
    command: 'app',
    reason: `cannot write ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); pass --env PATH for a file booty may write`,
  });
