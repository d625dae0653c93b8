import path from 'node:path';
import { packageRoot } from '../package-root.js';

// The built-in task set of `booty eval --builtin`: the eval/ folder of this package, found the same
// from src/ (tsx), dist/src/ and the image. Each task is a real fix from a public repository;
// eval/tasks/ holds the small snapshots (with their licences and a SOURCE note) and builtin.jsonl
// the tasks.

export const evalDir = path.join(packageRoot, 'eval');
export const builtinTasksFile = path.join(evalDir, 'builtin.jsonl');
