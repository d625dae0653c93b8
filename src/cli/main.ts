import { BootyError } from '../errors.js';
import { type Command, type Io, parse } from './command.js';
import { demoCommand } from './demo-command.js';
import { jobsCommand } from './jobs-command.js';
import { machineCommand } from './machine-command.js';
import { replayCommand } from './replay-command.js';
import { runCommand } from './run-command.js';
import { serveCommand } from './serve-command.js';

// booty's command line. Each command lives in its own file; this one only dispatches and turns
// any error into one clear line and a non-zero exit.

export const commands: Command[] = [
  demoCommand,
  serveCommand,
  runCommand,
  jobsCommand,
  replayCommand,
  machineCommand,
];

function overview(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'booty: turns a labeled GitHub issue into a tested pull request.',
    '',
    'Usage: booty <command> [options]     (booty <command> --help for its options)',
    '',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
  ].join('\n');
}

export async function main(argv: string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(overview());
    return name ? 0 : 2;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.err(
      `booty: unknown command ${JSON.stringify(name)}; run \`booty --help\` for the list (BOOTY_E_USAGE)`,
    );
    return 2;
  }
  try {
    const args = parse(command, rest);
    if (args.values.help) {
      io.out(command.usage);
      return 0;
    }
    return await command.run(args, io);
  } catch (err) {
    if (err instanceof BootyError) {
      io.err(`booty ${command.name}: ${err.message} (${err.code})`);
      return err.code === 'BOOTY_E_USAGE' ? 2 : 1;
    }
    io.err(`booty ${command.name}: ${(err as Error).message ?? String(err)}`);
    return 1;
  }
}
