import { withDotEnv } from '../env-sources.js';
import { BootyError } from '../errors.js';
import { type Command, type Io, parse } from './command.js';
import { asInvoked } from './invocation.js';

// booty's command line. Each command lives in its own file and is imported only when it runs:
// `booty --help` loads none of them, and `booty jobs` never loads the simulators or the server.
// This file only dispatches and turns any error into one clear line and a non-zero exit.

interface Entry {
  name: string;
  summary: string;
  load: () => Promise<Command>;
  /** The command reads the env file it is told (`app create --env`), not ./.env. */
  ownEnvFile?: true;
}

export const commands: Entry[] = [
  {
    name: 'demo',
    summary: 'run a real job offline: local GitHub, sample repo, scripted model',
    load: async () => (await import('./demo-command.js')).demoCommand,
  },
  {
    name: 'serve',
    summary: 'run the webhook gateway and the job supervisor',
    load: async () => (await import('./serve-command.js')).serveCommand,
  },
  {
    name: 'run',
    summary: 'run one job for owner/repo#N without a webhook',
    load: async () => (await import('./run-command.js')).runCommand,
  },
  {
    name: 'eval',
    summary: 'measure how many issues booty resolves, and at what cost, on a set of tasks',
    load: async () => (await import('./eval-command.js')).evalCommand,
  },
  {
    name: 'jobs',
    summary: 'list jobs: id, repo#issue, state, attempts, age',
    load: async () => (await import('./jobs-command.js')).jobsCommand,
  },
  {
    name: 'migrate',
    summary: "bring the store's schema (and on PostgreSQL the job queue's) up to this booty's, then exit",
    load: async () => (await import('./migrate-command.js')).migrateCommand,
  },
  {
    name: 'token',
    summary: 'make, list and revoke tokens for the jobs API (read or write)',
    load: async () => (await import('./token-command.js')).tokenCommand,
  },
  {
    name: 'replay',
    summary: "fold a job's log and print its timeline, or play it in the Stately inspector",
    load: async () => (await import('./replay-command.js')).replayCommand,
  },
  {
    name: 'app',
    summary: 'create the GitHub App booty runs as (GitHub’s manifest flow), and write .env',
    load: async () => (await import('./app-command.js')).appCommand,
    ownEnvFile: true,
  },
  {
    name: 'machine',
    summary: 'print the job machine: states and transitions, as JSON or as a Mermaid diagram',
    load: async () => (await import('./machine-command.js')).machineCommand,
  },
];

function overview(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'booty: turns a labeled GitHub issue into a tested pull request.',
    '',
    'Usage: booty <command> [options]     (booty <command> --help for its options; booty --version)',
    '',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
  ].join('\n');
}

export async function main(argv: string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  const self = io.self ?? 'booty';
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(overview());
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-V') {
    const { bootyVersion } = await import('../version.js');
    io.out(`booty ${bootyVersion()}`);
    return 0;
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    io.err(
      `booty: unknown command ${JSON.stringify(name)}; the commands are ${commands.map((c) => c.name).join(', ')}; see \`${self} --help\` (BOOTY_E_USAGE)`,
    );
    return 2;
  }
  try {
    const command = await entry.load();
    const args = parse(command, rest);
    if (args.values.help) {
      io.out(command.usage);
      return 0;
    }
    // Every command reads ./.env as serve does, under the real environment (which wins): the
    // settings `booty app create` wrote serve `booty run` and `booty jobs` in the same folder.
    const env = entry.ownEnvFile ? io.env : withDotEnv(io.env);
    return await command.run(args, { ...io, env, self });
  } catch (err) {
    if (err instanceof BootyError) {
      io.err(asInvoked(`booty ${name}: ${err.message} (${err.code})`, self));
      return err.code === 'BOOTY_E_USAGE' ? 2 : 1;
    }
    io.err(`booty ${name}: ${(err as Error).message ?? String(err)}`);
    return 1;
  }
}
