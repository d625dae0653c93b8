import path from 'node:path';
import type { Word } from './shell-words.js';

// Which test runner a simple command starts, read from its words. Only the shapes people write in
// package.json scripts, Makefiles and CI files: env prefixes, launchers (npx, pnpm exec, bundle
// exec), and the runner itself.

export type Runner =
  | 'pytest'
  | 'vitest'
  | 'jest'
  | 'mocha'
  | 'node-test'
  | 'go'
  | 'cargo'
  | 'uvu'
  | 'ava'
  | 'tape'
  | 'node-tap'
  | 'jasmine'
  | 'playwright'
  | 'bun'
  | 'deno'
  | 'phpunit'
  | 'rspec'
  | 'minitest'
  | 'dotnet'
  | 'maven'
  | 'gradle'
  | 'ctest';

export interface Invocation {
  runner: Runner;
  /** The word after which runner flags are inserted where order matters (`node`, `go test`'s `test`). */
  anchor: Word;
  /** The words after the runner's name (or after `--test`'s node, `go test`, `cargo test`). */
  args: string[];
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Launchers that run the program named after them: `npx x`, `pnpm exec x`, `bundle exec x`. */
const LAUNCHERS: Record<string, string | null> = {
  npx: null,
  bunx: null,
  pnpx: null,
  pnpm: 'exec',
  yarn: 'exec',
  bundle: 'exec',
  npm: 'exec',
};

/** Skips `VAR=x`, `env VAR=x`, `cross-env VAR=x` and launchers before the program. */
function programIndex(words: Word[]): number {
  let i = 0;
  const skipAssignments = () => {
    while (i < words.length && ASSIGNMENT.test(words[i]!.text)) i++;
  };
  const skipFlags = () => {
    while (i < words.length && words[i]!.text.startsWith('-')) i++;
  };
  skipAssignments();
  if (words[i]?.text === 'env' || words[i]?.text === 'cross-env') {
    i++;
    skipAssignments();
  }
  const launcher = words[i]?.text ?? '';
  const verb = LAUNCHERS[launcher];
  if (verb === null) {
    i++;
    skipFlags();
  } else if (verb !== undefined && words[i + 1]?.text === verb) {
    i += 2;
    skipFlags();
    if (words[i]?.text === '--') i++;
  }
  return i;
}

const texts = (words: Word[]) => words.map((w) => w.text);

/** Flags of node's that take the next word as their value. */
const NODE_VALUE_FLAGS = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader', '-C']);

/** node's own flags: everything before the first file (after it, flags belong to the script). */
function nodeFlags(args: string[]): string[] {
  const flags: string[] = [];
  for (let i = 0; i < args.length && args[i]!.startsWith('-'); i++) {
    flags.push(args[i]!);
    if (NODE_VALUE_FLAGS.has(args[i]!)) i++;
  }
  return flags;
}

/** Runners known by their program's name alone. */
const BY_NAME: Record<string, Runner> = {
  jest: 'jest',
  mocha: 'mocha',
  _mocha: 'mocha',
  pytest: 'pytest',
  'py.test': 'pytest',
  uvu: 'uvu',
  ava: 'ava',
  tape: 'tape',
  tap: 'node-tap',
  jasmine: 'jasmine',
  phpunit: 'phpunit',
  rspec: 'rspec',
  ctest: 'ctest',
};

/** Runners started as `<program> <verb>`: the verb is the anchor. */
const BY_VERB: Record<string, [verbs: string[], runner: Runner]> = {
  go: [['test'], 'go'],
  bun: [['test'], 'bun'],
  deno: [['test'], 'deno'],
  playwright: [['test'], 'playwright'],
  dotnet: [['test'], 'dotnet'],
  rails: [['test'], 'minitest'],
};

/** Build tools whose test task writes JUnit XML where the tool always puts it. */
const BUILD_TOOLS: Record<string, [tasks: RegExp, runner: Runner]> = {
  mvn: [/^(test|verify|install|package|integration-test)$|:test$/, 'maven'],
  mvnw: [/^(test|verify|install|package|integration-test)$|:test$/, 'maven'],
  gradle: [/^(test|check|build)$|:(test|check)$/, 'gradle'],
  gradlew: [/^(test|check|build)$|:(test|check)$/, 'gradle'],
};

export function recogniseRunner(words: Word[]): Invocation | null {
  const i = programIndex(words);
  const program = words[i];
  if (!program) return null;
  const name = path.posix.basename(program.text);
  const rest = words.slice(i + 1);
  const args = texts(rest);

  if (name === 'vitest') {
    // `vitest bench`, `vitest list` and friends do not run the tests.
    const sub = args.find((a) => !a.startsWith('-'));
    if (sub && ['bench', 'list', 'init', 'typecheck'].includes(sub)) return null;
    return { runner: 'vitest', anchor: program, args };
  }
  if (name === 'tap' && args[0] && ['report', 'replay', 'plugin', 'version', 'help'].includes(args[0])) {
    return null;
  }
  const known = BY_NAME[name];
  if (known) return { runner: known, anchor: program, args };
  if (/^python(\d(\.\d+)?)?$/.test(name) && args[0] === '-m' && args[1] === 'pytest') {
    return { runner: 'pytest', anchor: program, args: args.slice(2) };
  }
  if (name === 'node') {
    if (nodeFlags(args).includes('--test')) return { runner: 'node-test', anchor: program, args };
    return null;
  }
  if (name === 'php' && args[0] && path.posix.basename(args[0]) === 'phpunit') {
    return { runner: 'phpunit', anchor: rest[0]!, args: args.slice(1) };
  }
  if (name === 'ruby' && args.some((a) => /(^|\/)(test_\w+|\w+_test)\.rb$/.test(a))) {
    return { runner: 'minitest', anchor: program, args };
  }
  if (name === 'rake' || name === 'rails') {
    const task = args.find((a) => !a.startsWith('-') && !ASSIGNMENT.test(a));
    if (task === 'spec' || task?.startsWith('spec:')) return { runner: 'rspec', anchor: program, args };
    if (task === 'test' || task?.startsWith('test:')) return { runner: 'minitest', anchor: program, args };
    return null;
  }
  const verb = BY_VERB[name];
  if (verb?.[0].includes(args[0] ?? '')) {
    return { runner: verb[1], anchor: rest[0]!, args: args.slice(1) };
  }
  const tool = BUILD_TOOLS[name];
  if (tool && args.some((a) => tool[0].test(a))) return { runner: tool[1], anchor: program, args };
  if (name === 'cargo') {
    const at = args[0]?.startsWith('+') ? 1 : 0; // `cargo +nightly test`
    if (args[at] === 'test') return { runner: 'cargo', anchor: rest[at]!, args: args.slice(at + 1) };
  }
  return null;
}
