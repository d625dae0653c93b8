import { type ParseArgsConfig, parseArgs } from 'node:util';
import { BootyError } from '../errors.js';

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
