import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The built-in task set of `booty eval --builtin`: the eval/ folder of this package, the same from
// src/ (tsx) and dist/. Each task is a real fix from a public repository; eval/tasks/ holds the
// small snapshots (with their licences and a SOURCE note) and builtin.jsonl the tasks.

export const evalDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../eval');
export const builtinTasksFile = path.join(evalDir, 'builtin.jsonl');
