import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Invocation, recogniseRunner } from './command-shape.js';
import { commandSegments, simpleCommandWords, type Word } from './shell-words.js';

// Which runner a test command ends up starting, through the wrappers people put around it:
// package scripts (npm, yarn, pnpm, bun, composer, deno task), a Makefile target, and lists of
// commands (`xo && ava && tsd`). The first command of a list that starts a runner is the one.
// How the runner was reached decides what booty may change: the command's own words, the
// arguments a script call passes on, or nothing but the environment.

/** How booty may hand the runner its flags. */
export type Route =
  /** The runner's words are in the command itself, `start..end` of it. */
  | { kind: 'direct'; start: number; end: number; words: Word[] }
  /** A script call ending at `end` of the command, which passes what follows `separator` on to a
   * script that is the runner's one command. */
  | { kind: 'script'; end: number; separator: ' -- ' | ' ' }
  /** `make test` over CMake's test target, which hands `ARGS` to ctest. */
  | { kind: 'make-args'; end: number }
  /** Inside a list, a Makefile recipe or a script with more arguments: only the environment. */
  | { kind: 'opaque' };

export interface Resolution {
  invocation: Invocation;
  route: Route;
}

/** Where a script call's extra arguments go: verified per manager (npm 11, yarn 1.22, pnpm 9.15). */
export interface ScriptCall {
  source: 'package.json' | 'composer.json' | 'deno.json';
  script: string;
  separator: ' -- ' | ' ';
  /** Words after the script name, which the call passes on. */
  extra: number;
  /** For `yarn x` / `pnpm x`: with no such script, x is a program of node_modules/.bin. */
  orProgram: boolean;
}

/** Commands of yarn and pnpm that are not script names. */
const MANAGER_COMMANDS = new Set([
  'install',
  'add',
  'remove',
  'upgrade',
  'up',
  'update',
  'exec',
  'dlx',
  'create',
  'init',
  'link',
  'unlink',
  'pack',
  'publish',
  'why',
  'list',
  'ls',
  'info',
  'outdated',
  'audit',
  'config',
  'cache',
  'workspace',
  'workspaces',
  'rebuild',
  'prune',
  'store',
  'import',
  'patch',
  'dedupe',
  'bin',
  'global',
]);

/**
 * `npm test`, `npm t`, `npm run <s>`, `yarn test`, `yarn [run] <s>`, `pnpm test`, `pnpm [run] <s>`,
 * `bun run <s>`, `composer test`, `composer run-script <s>`, `deno task <s>`. npm strips `--` and
 * passes the rest; yarn 1 passes what follows the script name; pnpm 9 strips `--` after `pnpm test`
 * but passes it verbatim after `pnpm run <s>`; composer wants `--` (its documentation says so);
 * `bun run <s>` and `deno task <s>` pass what follows (checked with bun 1.4.5 and deno 2.9.6).
 */
export function recogniseScriptCall(words: Word[]): ScriptCall | null {
  const [manager, verb, script] = words.map((w) => w.text);
  const call = (
    source: ScriptCall['source'],
    name: string,
    separator: ScriptCall['separator'],
    at: number,
    orProgram = false,
  ): ScriptCall | null =>
    name && !name.startsWith('-')
      ? { source, script: name, separator, extra: words.length - at, orProgram }
      : null;
  if (manager === 'npm' || manager === 'yarn' || manager === 'pnpm') {
    const isTest = verb === 'test' || verb === 't' || (manager === 'npm' && verb === 'tst');
    const isRun = verb === 'run' || (manager === 'npm' && verb === 'run-script');
    if (isTest) return call('package.json', 'test', manager === 'yarn' ? ' ' : ' -- ', 2);
    if (isRun && script) return call('package.json', script, manager === 'npm' ? ' -- ' : ' ', 3);
    if (manager !== 'npm' && verb && !MANAGER_COMMANDS.has(verb))
      return call('package.json', verb, ' ', 2, true);
    return null;
  }
  if (manager === 'bun' && verb === 'run' && script) return call('package.json', script, ' ', 3, true);
  if (manager === 'composer') {
    if (verb === 'test') return call('composer.json', 'test', ' -- ', 2);
    if ((verb === 'run-script' || verb === 'run') && script) return call('composer.json', script, ' -- ', 3);
    return null;
  }
  if (manager === 'deno' && verb === 'task' && script) return call('deno.json', script, ' ', 3);
  return null;
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return null;
  }
}

const field = (doc: unknown, key: string): unknown =>
  doc && typeof doc === 'object' && key in doc ? (doc as Record<string, unknown>)[key] : undefined;

/** A script's text: package.json `scripts`, composer.json `scripts` (first of a list), deno `tasks`. */
export async function readScript(cwd: string, call: ScriptCall): Promise<string | null> {
  const files = call.source === 'deno.json' ? ['deno.json', 'deno.jsonc'] : [call.source];
  for (const file of files) {
    const doc = await readJson(path.join(cwd, file));
    const scripts = field(doc, call.source === 'deno.json' ? 'tasks' : 'scripts');
    let script = field(scripts, call.script);
    if (Array.isArray(script)) script = script.length === 1 ? script[0] : script.join(' && ');
    if (call.source === 'deno.json' && field(script, 'command')) script = field(script, 'command');
    if (typeof script === 'string') return script;
  }
  return null;
}

/** A Makefile's `NAME = value` lines (also `?=`, `:=`), for the `$(NAME)` of its recipes. */
function makeVariables(lines: string[]): Map<string, string> {
  const vars = new Map<string, string>();
  for (const line of lines) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)\s*[?:]?=\s*(.*)$/.exec(line);
    if (m && !vars.has(m[1]!)) vars.set(m[1]!, m[2]!.trim());
  }
  return vars;
}

/** A recipe line with its variables put in (one level; an unknown one is empty, as in make). */
const expand = (line: string, vars: Map<string, string>) =>
  line.replace(/\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]/g, (_, name: string) => vars.get(name) ?? '');

/** The recipe of `target` in the work tree's Makefile, one command a line, prefixes dropped. */
async function makeRecipe(cwd: string, target: string): Promise<{ raw: string; line: string }[] | null> {
  let text: string | null = null;
  for (const name of ['GNUmakefile', 'makefile', 'Makefile']) {
    text ??= await readFile(path.join(cwd, name), 'utf8').catch(() => null);
  }
  if (text === null) return null;
  const lines = text.replace(/\\\n/g, ' ').split('\n');
  const vars = makeVariables(lines);
  const at = lines.findIndex((l) => {
    const colon = l.indexOf(':');
    if (colon < 0 || l.startsWith('\t') || l[colon + 1] === '=') return false;
    return l.slice(0, colon).trim().split(/\s+/).includes(target);
  });
  if (at < 0) return null;
  const recipe: { raw: string; line: string }[] = [];
  for (const line of lines.slice(at + 1)) {
    if (!line.startsWith('\t')) {
      if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
      break;
    }
    const raw = line.trim().replace(/^[@+-]+/, '');
    recipe.push({ raw, line: expand(raw, vars) });
  }
  return recipe;
}

/** `make [flags] target` (no `-C`, no `-f`): the target. */
function makeTarget(words: Word[]): string | null {
  if (words[0]?.text !== 'make') return null;
  const rest = words.slice(1).map((w) => w.text);
  if (rest.some((a) => /^-[Cf]|^--(directory|file|makefile)/.test(a))) return null;
  const targets = rest.filter((a) => !a.startsWith('-') && !a.includes('='));
  return targets.length === 1 ? targets[0]! : null;
}

const MAX_DEPTH = 4;

/** The first runner a list of commands starts, and how it was reached. */
export async function resolveCommand(command: string, cwd: string, depth = 0): Promise<Resolution | null> {
  if (depth > MAX_DEPTH) return null;
  const segments = commandSegments(command);
  for (const segment of segments) {
    const words = simpleCommandWords(segment.text);
    if (!words || words.length === 0) continue;
    const direct = recogniseRunner(words);
    if (direct) {
      const shifted = words.map((w) => ({
        ...w,
        start: w.start + segment.start,
        end: w.end + segment.start,
      }));
      return {
        invocation: {
          ...direct,
          anchor: shifted.find((w) => w.start === direct.anchor.start + segment.start)!,
        },
        route: { kind: 'direct', start: segment.start, end: segment.end, words: shifted },
      };
    }
    const call = recogniseScriptCall(words);
    if (call) {
      const script = await readScript(cwd, call);
      if (script === null) {
        if (!call.orProgram) continue;
        const program = recogniseRunner(words.slice(1));
        if (program) return { invocation: program, route: { kind: 'opaque' } };
        continue;
      }
      const inner = await resolveCommand(script.trim(), cwd, depth + 1);
      if (!inner) continue;
      // Flags appended to the call reach the runner only when the script is the runner alone.
      const passes =
        inner.route.kind === 'direct' && commandSegments(script).length === 1 && call.extra === 0;
      return {
        invocation: inner.invocation,
        route: passes ? { kind: 'script', end: segment.end, separator: call.separator } : { kind: 'opaque' },
      };
    }
    const target = makeTarget(words);
    if (target) {
      const recipe = await makeRecipe(cwd, target);
      for (const { raw, line } of recipe ?? []) {
        const inner = await resolveCommand(line, cwd, depth + 1);
        if (!inner) continue;
        const hasArgs = inner.invocation.runner === 'ctest' && raw.includes('$(ARGS)');
        const free = !words.some((w) => w.text.startsWith('ARGS='));
        return {
          invocation: inner.invocation,
          route: hasArgs && free ? { kind: 'make-args', end: segment.end } : { kind: 'opaque' },
        };
      }
    }
  }
  return null;
}
