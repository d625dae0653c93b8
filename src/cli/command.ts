import { type ParseArgsConfig, parseArgs } from 'node:util';
import { loadEnv, storeLocation } from '../env.js';
import { BootyError } from '../errors.js';
import type { EventStore } from '../store/event-store.js';

// What every `booty` command is: a name, its help, its options, and a run that returns the exit code.

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** How booty was started (`booty`, `npx booty`, `node dist/cli/bin.js`), for hints; default `booty`. */
  self?: string;
}

export type Options = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | string[] | boolean[] | undefined>;

export interface Command {
  name: string;
  usage: string;
  options: Options;
  /** Names of the positional arguments, in order; a trailing `?` marks an optional one. */
  positionals: string[];
  /** `io.self` is always set here: main fills in the default. */
  run(args: { values: Values; positionals: string[] }, io: Io & { self: string }): Promise<number>;
}

export const dbOption = { db: { type: 'string' } } as const satisfies Options;
export const dbHelp =
  '  --db PATH|URL  the event store: a SQLite file, or a postgres:// URL (default: $BOOTY_DATABASE_URL,\n                 else $BOOTY_DB, else ./booty.db)';

export function parse(command: Command, argv: string[]) {
  const options: Options = { ...command.options, help: { type: 'boolean', short: 'h' } };
  // Parsed leniently and then checked here, so a wrong flag gets booty's own one-line answer
  // naming the flags there are, not node's parseArgs text.
  const parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: false, tokens: true });
  const usage = (reason: string) => new BootyError('BOOTY_E_USAGE', { command: command.name, reason });
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    const option = options[token.name];
    if (!option) throw usage(`unknown option ${token.rawName}; the options are ${optionList(options)}`);
    if (option.type === 'string' && token.value === undefined)
      throw usage(`${token.rawName} needs a value, as in ${token.rawName} <value>`);
    if (option.type === 'boolean' && token.value !== undefined)
      throw usage(`${token.rawName} takes no value, but was given ${JSON.stringify(token.value)}`);
  }
  const required = command.positionals.filter((p) => !p.endsWith('?')).length;
  if (!parsed.values.help) {
    if (parsed.positionals.length < required) {
      throw new BootyError('BOOTY_E_USAGE', {
        command: command.name,
        reason: `missing <${command.positionals[parsed.positionals.length]}>`,
      });
    }
    if (parsed.positionals.length > command.positionals.length) {
      throw new BootyError('BOOTY_E_USAGE', {
        command: command.name,
        reason: `unexpected argument ${JSON.stringify(parsed.positionals[command.positionals.length])}`,
      });
    }
  }
  return { values: parsed.values as Values, positionals: parsed.positionals };
}

const optionList = (options: Options) =>
  Object.entries(options)
    .map(([name, o]) => `--${name}${o.type === 'string' ? ' <value>' : ''}`)
    .join(', ');

/**
 * Where the store is, read as every command reads its settings: `--db`, else the environment and
 * ./.env (BOOTY_DATABASE_URL or its _FILE, with BOOTY_DATABASE_PASSWORD; else BOOTY_DB).
 */
export const storeOf = (values: Values, env: NodeJS.ProcessEnv): string =>
  storeLocation(loadEnv({ ...env, ...(values.db ? dbEnv(values.db as string) : {}) }));

/** The database for read-only commands: never created by reading it. Loaded only by them. */
export async function openExistingStore(values: Values, env: NodeJS.ProcessEnv): Promise<EventStore> {
  const location = storeOf(values, env);
  const { openExistingStore } = await import('../main/open-store.js');
  return openExistingStore(location);
}

/** `--db` in the environment's words: a postgres:// URL is BOOTY_DATABASE_URL, a path BOOTY_DB. */
export const dbEnv = (db: string): NodeJS.ProcessEnv =>
  /^postgres(ql)?:\/\//i.test(db)
    ? { BOOTY_DATABASE_URL: db, BOOTY_DATABASE_URL_FILE: '' }
    : {
        BOOTY_DB: db,
        BOOTY_DATABASE_URL: '',
        BOOTY_DATABASE_URL_FILE: '',
        BOOTY_DATABASE_PASSWORD: '',
        BOOTY_DATABASE_PASSWORD_FILE: '',
      };

/** A positive integer option, or a usage error naming it. */
export function intOption(command: string, name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    throw new BootyError('BOOTY_E_USAGE', {
      command,
      reason: `--${name} must be a whole number of at least 1, not ${JSON.stringify(value)}`,
    });
  }
  return n;
}
