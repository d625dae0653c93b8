import path from 'node:path';
import { readScript, recogniseScriptCall } from './reports/command-routes.js';
import type { Runner } from './reports/command-shape.js';
import { simpleCommandWords } from './reports/shell-words.js';

// Which test runner a command starts, in a person's words, for a run booty could not read: the
// runner booty recognised, else the program the command (or the package script it calls) starts,
// so the message can say what to make readable.

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const LAUNCHERS = new Set(['npx', 'bunx', 'env', 'cross-env']);
/** Interpreters whose script is the runner: `node test/run.js`, not `node`. */
const INTERPRETERS = /^(?:node|deno|bun|python\d?(?:\.\d+)?|ruby|php|sh|bash)$/;

/** The program a simple command starts, with its script for an interpreter; null for anything else. */
function programOf(command: string): string | null {
  const words = simpleCommandWords(command.trim())?.map((w) => w.text);
  if (!words) return null;
  let i = 0;
  while (i < words.length && (ASSIGNMENT.test(words[i]!) || LAUNCHERS.has(words[i]!))) i++;
  const program = words[i];
  if (!program) return null;
  const name = path.posix.basename(program);
  const script = words.slice(i + 1).find((w) => !w.startsWith('-'));
  return INTERPRETERS.test(name) && script ? `${name} ${script}` : name;
}

/** "`uvu` (the `test` script: `uvu -r esm test`)", "`vitest`, which booty recognises", "`make check`". */
export async function runnerSeen(command: string, cwd: string, recognised: Runner | null): Promise<string> {
  if (recognised) return `\`${recognised}\`, which booty recognises`;
  const words = simpleCommandWords(command.trim());
  const call = words ? recogniseScriptCall(words) : null;
  const script = call ? await readScript(cwd, call) : null;
  if (call && script !== null) {
    const program = programOf(script);
    const shown = `the \`${call.script}\` script${program === script.trim() ? '' : `: \`${script.trim()}\``}`;
    return program ? `\`${program}\` (${shown})` : shown;
  }
  const program = programOf(command);
  return program ? `\`${program}\`` : `\`${command.trim()}\``;
}
