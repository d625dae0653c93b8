import type { FileChange } from '../events/effect-results.js';
import { type AttemptRecord, mergeChanges } from '../machines/job-context.js';
import { appliedChanges } from './attempt-patches.js';

// A refinement that would leave the code exactly as an earlier attempt left it would only repeat
// that attempt's test run and its failure. It is caught before anything is applied or run.

/** The code as it would be tested, by path; a path back at its base content counts as unchanged. */
function treeOf(changes: FileChange[], base: Map<string, string | null>): Map<string, string | null> {
  const tree = new Map<string, string | null>();
  for (const c of changes) if (c.content !== (base.get(c.path) ?? null)) tree.set(c.path, c.content);
  return tree;
}

const sameTree = (a: Map<string, string | null>, b: Map<string, string | null>) =>
  a.size === b.size && [...a].every(([path, content]) => b.has(path) && b.get(path) === content);

/**
 * The earlier attempt (of those given, all on the same base) whose tested code the proposal
 * would recreate, or null. `current` is what the attempts so far applied.
 */
export function repeatedAttempt(input: {
  attempts: AttemptRecord[];
  current: FileChange[];
  proposal: FileChange[];
  base: Map<string, string | null>;
}): number | null {
  const candidate = treeOf(mergeChanges(input.current, input.proposal), input.base);
  let applied: FileChange[] = [];
  let found: number | null = null;
  for (const a of input.attempts) {
    applied = mergeChanges(applied, appliedChanges(a));
    if (a.test !== null && found === null && sameTree(candidate, treeOf(applied, input.base))) found = a.n;
  }
  return found;
}
