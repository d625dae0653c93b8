import fs from 'node:fs';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { BootyError } from '../errors.js';
import { openStore } from '../store/open-store.js';
import type { SqliteEventStore } from '../store/sqlite-event-store.js';

// What every `booty` command is: a name, its help, its options, and a run that returns the exit code.

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  env: NodeJS.ProcessEnv;
}

export type Options = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | string[] | boolean[] | undefined>;

export interface Command {
  name: string;
  summary: string;
  usage: string;
  options: Options;
  /** Names of the positional arguments, in order; a trailing `?` marks an optional one. */
  positionals: string[];
  run(args: { values: Values; positionals: string[] }, io: Io): Promise<number>;
}

export const dbOption = { db: { type: 'string' } } as const satisfies Options;
export const dbHelp = '  --db PATH      the event store (default: $BOOTY_DB, else ./booty.db)';

export function parse(command: Command, argv: string[]) {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new BootyError('BOOTY_E_USAGE', {
      command: command.name,
      reason: (err as Error).message.split('\n')[0]!,
    });
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
  return parsed as { values: Values; positionals: string[] };
}

/** The database for read-only commands: never created by reading it. */
export function openExistingStore(values: Values, env: NodeJS.ProcessEnv): SqliteEventStore {
  const file = (values.db as string | undefined) ?? env.BOOTY_DB ?? './booty.db';
  if (!fs.existsSync(file)) throw new BootyError('BOOTY_E_DB_MISSING', { path: file });
  return openStore(file);
}

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
