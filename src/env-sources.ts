import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { BootyError } from './errors.js';

// Where booty's settings come from: the environment, Probot's names for the same settings, a
// `.env` file, and a file per secret (`NAME_FILE`, as Docker and Compose `secrets:` mount them).
// The real environment wins over the .env file, and booty's names over Probot's.

/** Probot's names for booty's settings. booty's own name wins when both are set. */
export const ENV_ALIASES = {
  APP_ID: 'GITHUB_APP_ID',
  PRIVATE_KEY: 'GITHUB_PRIVATE_KEY',
  PRIVATE_KEY_PATH: 'GITHUB_PRIVATE_KEY_PATH',
  WEBHOOK_SECRET: 'GITHUB_WEBHOOK_SECRET',
} as const;

const given = (v: string | undefined): v is string => v !== undefined && v.trim() !== '';

/** Which variable each setting was read from, so an error names the one the operator set. */
const readFrom = new WeakMap<object, Record<string, string>>();

export const recordSources = (env: object, from: Record<string, string>) => readFrom.set(env, from);

/** The variable a setting of this env came from: booty's name, or the Probot alias that gave it. */
export const envName = (env: object, name: string): string => readFrom.get(env)?.[name] ?? name;

/**
 * booty's names filled in from Probot's where only those are set. GHE_HOST (and GHE_PROTOCOL)
 * give GITHUB_API_URL as GitHub Enterprise Server serves it: <protocol>://<host>/api/v3.
 */
export function withAliases(source: NodeJS.ProcessEnv): {
  values: NodeJS.ProcessEnv;
  from: Record<string, string>;
} {
  // A variable set to nothing is unset, as in a .env file copied from .env.example.
  const values: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(source).filter(([, v]) => given(v)));
  const from: Record<string, string> = {};
  for (const [alias, name] of Object.entries(ENV_ALIASES)) {
    if (!given(source[name]) && given(source[alias])) {
      values[name] = source[alias];
      from[name] = alias;
    }
  }
  if (!given(source.GITHUB_API_URL) && given(source.GHE_HOST)) {
    const host = source.GHE_HOST.trim();
    if (!/^[A-Za-z0-9.-]+(:\d+)?$/.test(host)) {
      throw new BootyError('BOOTY_E_ENV_INVALID', {
        name: 'GHE_HOST',
        reason: `is invalid: "${host}" is not a host name like ghe.example.com (no scheme, no path); or set GITHUB_API_URL`,
      });
    }
    const protocol = source.GHE_PROTOCOL?.trim() || 'https';
    if (protocol !== 'https' && protocol !== 'http') {
      throw new BootyError('BOOTY_E_ENV_INVALID', { name: 'GHE_PROTOCOL', reason: 'must be https or http' });
    }
    values.GITHUB_API_URL = `${protocol}://${host}/api/v3`;
    from.GITHUB_API_URL = 'GHE_HOST';
  }
  return { values, from };
}

/**
 * A `.env` file's variables under the real environment's (which win), as Probot reads them.
 * `serve` reads `./.env`; a missing file is no error, an unreadable one is.
 */
export function withDotEnv(source: NodeJS.ProcessEnv, file = path.resolve('.env')): NodeJS.ProcessEnv {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return source;
    throw new BootyError('BOOTY_E_ENV_INVALID', {
      name: 'file',
      reason: `${file} cannot be read: ${(err as Error).message}; fix its permissions or remove it`,
    });
  }
  return { ...parseEnv(text), ...source };
}

/**
 * The secrets that may come from a file: `NAME_FILE=/run/secrets/name` instead of `NAME=value`,
 * so a container's secrets never stand in its environment or its compose file.
 */
export const FILE_SECRETS = [
  'GITHUB_WEBHOOK_SECRET',
  'GITHUB_WEBHOOK_SECRET_PREVIOUS',
  'GITHUB_TOKEN',
  'GITHUB_PRIVATE_KEY',
  'GITHUB_CLIENT_SECRET',
  'ANTHROPIC_API_KEY',
  'BOOTY_DATABASE_URL',
  'BOOTY_DATABASE_PASSWORD',
] as const;

/**
 * Each `NAME_FILE` read into NAME. The file's trailing line breaks are dropped (an editor or
 * `echo` adds one); what is left must not be empty. Setting both NAME and NAME_FILE is an error,
 * not a silent choice between two secrets. `from` names the variable each value came from.
 */
export function withSecretFiles(source: NodeJS.ProcessEnv): {
  values: NodeJS.ProcessEnv;
  from: Record<string, string>;
} {
  const values: NodeJS.ProcessEnv = { ...source };
  const from: Record<string, string> = {};
  for (const name of FILE_SECRETS) {
    const fileName = `${name}_FILE`;
    const file = source[fileName];
    delete values[fileName];
    if (!given(file)) continue;
    const invalid = (reason: string) => new BootyError('BOOTY_E_ENV_INVALID', { name: fileName, reason });
    if (given(source[name]))
      throw invalid(`is set, and so is ${name}: set one of them (the file is for container secrets)`);
    let text: string;
    try {
      text = fs.readFileSync(file.trim(), 'utf8');
    } catch (err) {
      throw invalid(
        `names ${file.trim()}, which cannot be read (${(err as Error).message}); mount the secret there or fix its permissions`,
      );
    }
    const value = text.replace(/[\r\n]+$/, '');
    if (value.trim() === '')
      throw invalid(`names ${file.trim()}, which is empty; put the ${name} value in it`);
    values[name] = value;
    from[name] = fileName;
  }
  return { values, from };
}
