import type { FileChange } from '../events/effect-results.js';
import type { ChangesAnswer } from './answer-schemas.js';
import { applyFileEdits, editsByFile } from './search-replace.js';

// A changes answer as whole files: edits are applied to each file's current content (the job's
// latest version, else the base), so the log keeps recording complete contents and an old log's
// Generated event reads as before.

export interface Resolved {
  changes: FileChange[];
  /** Edits that did not apply, each named by its place in the answer. */
  problems: string[];
}

export async function resolveAnswer(
  answer: ChangesAnswer,
  current: (paths: string[]) => Promise<Map<string, string | null>>,
): Promise<Resolved> {
  const byFile = editsByFile(answer.edits);
  const contents = await current([...byFile.keys()]);
  const changes: FileChange[] = [];
  const problems: string[] = [];
  for (const [path, edits] of byFile) {
    const result = applyFileEdits(path, contents.get(path) ?? null, edits);
    if (result.ok) changes.push({ path, content: result.content });
    else problems.push(result.problem);
  }
  changes.push(
    ...answer.changes.map((c) => ({ path: c.path, content: c.content })),
    ...answer.deletePaths.map((path) => ({ path, content: null })),
  );
  changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { changes, problems };
}
