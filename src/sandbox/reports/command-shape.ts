import path from 'node:path';
import type { Word } from './shell-words.js';

// Which test runner a simple command starts, read from its words. Only the shapes people write in
// package.json scripts and CI files: env prefixes, npx, pnpm exec, and the runner itself.

export type Runner = 'pytest' | 'vitest' | 'jest' | 'mocha' | 'node-test' | 'go' | 'cargo';

export interface Invocation {
  runner: Runner;
  /** The word after which runner flags are inserted where order matters (`node`, `go test`'s `test`). */
  anchor: Word;
  /** The words after the runner's name (or after `--test`'s node, `go test`, `cargo test`). */
  args: string[];
}

export interface ScriptCall {
  manager: 'npm' | 'yarn' | 'pnpm';
  script: string;
  /** What goes between the command and extra arguments so they reach the script (verified per manager). */
  separator: ' -- ' | ' ';
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Skips `VAR=x`, `env VAR=x`, `cross-env VAR=x` and launchers (`npx`, `pnpm exec`) before the program. */
function programIndex(words: Word[]): number {
  let i = 0;
  const skipAssignments = () => {
    while (i < words.length && ASSIGNMENT.test(words[i]!.text)) i++;
  };
  skipAssignments();
  if (words[i]?.text === 'env' || words[i]?.text === 'cross-env') {
    i++;
    skipAssignments();
  }
  if (words[i]?.text === 'npx' || words[i]?.text === 'bunx') {
    i++;
    while (i < words.length && words[i]!.text.startsWith('-')) i++;
  } else if (words[i]?.text === 'pnpm' && words[i + 1]?.text === 'exec') {
    i += 2;
  } else if (words[i]?.text === 'yarn' && words[i + 1]?.text === 'exec') {
    i += 2;
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
  if (name === 'jest') return { runner: 'jest', anchor: program, args };
  if (name === 'mocha' || name === '_mocha') return { runner: 'mocha', anchor: program, args };
  if (name === 'pytest' || name === 'py.test') return { runner: 'pytest', anchor: program, args };
  if (/^python(\d(\.\d+)?)?$/.test(name) && args[0] === '-m' && args[1] === 'pytest') {
    return { runner: 'pytest', anchor: program, args: args.slice(2) };
  }
  if (name === 'node') {
    if (nodeFlags(args).includes('--test')) return { runner: 'node-test', anchor: program, args };
    return null;
  }
  if (name === 'go' && args[0] === 'test') return { runner: 'go', anchor: rest[0]!, args: args.slice(1) };
  if (name === 'cargo') {
    const at = args[0]?.startsWith('+') ? 1 : 0; // `cargo +nightly test`
    if (args[at] === 'test') return { runner: 'cargo', anchor: rest[at]!, args: args.slice(at + 1) };
  }
  return null;
}

/**
 * `npm test`, `npm t`, `npm run <s>`, `yarn test`, `yarn run <s>`, `pnpm test`, `pnpm run <s>`.
 * npm strips `--` and passes the rest; yarn 1 passes what follows the script name; pnpm 9 strips
 * `--` after `pnpm test` but passes it verbatim after `pnpm run <s>` (checked with npm 11, yarn
 * 1.22 and pnpm 9.15).
 */
export function recogniseScriptCall(words: Word[]): ScriptCall | null {
  const [manager, verb, script, ...more] = texts(words);
  if (manager !== 'npm' && manager !== 'yarn' && manager !== 'pnpm') return null;
  const isTest = verb === 'test' || verb === 't' || (manager === 'npm' && verb === 'tst');
  const isRun = verb === 'run' || (manager === 'npm' && verb === 'run-script');
  if (isTest && script === undefined) {
    return { manager, script: 'test', separator: manager === 'yarn' ? ' ' : ' -- ' };
  }
  if (isRun && script && !script.startsWith('-') && more.length === 0) {
    return { manager, script, separator: manager === 'npm' ? ' -- ' : ' ' };
  }
  return null;
}
