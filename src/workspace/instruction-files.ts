import type { Instruction } from '../events/effect-results.js';
import { filesAt, readObjects } from './git.js';

// The repository's instructions for coding agents, as teams keep them now: AGENTS.md (one per
// folder, the nearest applying), CLAUDE.md and .github/copilot-instructions.md. Read from the
// default branch's commit only, never from a change's own tree, so no pull request can write
// what booty is told.

/** Each file is read up to this many characters. */
const FILE_CAP = 8_000;
/** Folders' AGENTS.md read at most, shallowest first. */
const MAX_AGENTS = 12;

const ROOT_FILES = ['CLAUDE.md', '.github/copilot-instructions.md'];
const isAgents = (p: string) => p === 'AGENTS.md' || p.endsWith('/AGENTS.md');
const depth = (p: string) => p.split('/').length;

/** The instruction files at `commit` of the git repository in `dir`, each capped. */
export async function readInstructions(dir: string, commit: string): Promise<Instruction[]> {
  const tree = await filesAt(dir, commit);
  const agents = tree
    .filter(isAgents)
    .sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : 1))
    .slice(0, MAX_AGENTS);
  const paths = [...agents, ...ROOT_FILES.filter((p) => tree.includes(p))];
  if (paths.length === 0) return [];
  const blobs = await readObjects(
    dir,
    paths.map((p) => `${commit}:${p}`),
  );
  return paths.flatMap((path) => {
    const bytes = blobs.get(`${commit}:${path}`);
    if (!bytes || bytes.includes(0)) return [];
    const text = bytes.toString('utf8');
    return [{ path, text: text.slice(0, FILE_CAP), truncated: text.length > FILE_CAP }];
  });
}
