// What git said about a commit never changes: a file at `<sha>:<path>`, or a commit's list of
// files. A job reads the same base files in several steps (the model's context, the test guard,
// the path policy, the test judge), so each is read from git once and then kept here. Keys start
// with a full commit id, never a branch name, so an entry can never go stale; the cache is bounded
// by bytes and forgets the least recently used.

const MAX_BYTES = 64 * 1024 * 1024;

const entries = new Map<string, { value: unknown; bytes: number }>();
let total = 0;

/** Only a key naming a full commit id may be cached: a branch moves, a sha does not. */
const isPinned = (key: string) => pinnedCommit(key) !== null;

/** The full commit id a key starts with (`<sha>:<path>`, `<sha> files`), or null. */
export const pinnedCommit = (key: string) =>
  /^([0-9a-f]{40}(?:[0-9a-f]{24})?)(?:[: ]|$)/.exec(key)?.[1] ?? null;

export function cached<T>(key: string): T | undefined {
  const hit = entries.get(key);
  if (!hit) return undefined;
  entries.delete(key); // re-inserted: a Map iterates oldest first
  entries.set(key, hit);
  return hit.value as T;
}

export function remember<T>(key: string, value: T, bytes: number): T {
  if (!isPinned(key) || bytes > MAX_BYTES / 8) return value;
  const old = entries.get(key);
  if (old) total -= old.bytes;
  entries.set(key, { value, bytes });
  total += bytes;
  for (const [k, e] of entries) {
    if (total <= MAX_BYTES) break;
    entries.delete(k);
    total -= e.bytes;
  }
  return value;
}

/** Forgets everything: a benchmark measuring one job cold starts here. */
export function forgetCommits(): void {
  entries.clear();
  total = 0;
}
