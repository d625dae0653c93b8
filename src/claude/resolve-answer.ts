import type { FileChange } from '../events/effect-results.js';
import type { ChangesAnswer } from './answer-schemas.js';
import { touchedFileText } from './prompts.js';
import { applyFileEdits, editsByFile } from './search-replace.js';

// A changes answer as whole files: edits are applied to each file's current content (the job's
// latest version, else the base), so the log keeps recording complete contents and an old log's
// Generated event reads as before.
//
// An edit to a protected path (a tracked .env, a key) is never resolved: its file is not read, so
// its content cannot reach the model in a repair turn. It is proposed as the path alone (no
// content), and the apply step's path policy rejects it as it rejects any change there.

export interface Resolved {
  changes: FileChange[];
  /** Edits that did not apply, each named by its place in the answer. */
  problems: string[];
  /** The current text of each file whose edits did not apply, to copy the search text from. */
  current: string[];
}

export async function resolveAnswer(
  answer: ChangesAnswer,
  current: (paths: string[]) => Promise<Map<string, string | null>>,
  isProtected: (path: string) => boolean,
): Promise<Resolved> {
  const byFile = editsByFile(answer.edits);
  const changes: FileChange[] = [];
  for (const path of [...byFile.keys()].filter(isProtected)) {
    byFile.delete(path);
    changes.push({ path, content: null });
  }
  const contents = await current([...byFile.keys()]);
  const problems: string[] = [];
  const shown: string[] = [];
  for (const [path, edits] of byFile) {
    const content = contents.get(path) ?? null;
    const result = applyFileEdits(path, content, edits);
    if (result.ok) changes.push({ path, content: result.content });
    else {
      problems.push(result.problem);
      if (content !== null) shown.push(`The current content of ${path}:\n${touchedFileText(path, content)}`);
    }
  }
  changes.push(
    ...answer.changes.map((c) => ({ path: c.path, content: c.content })),
    ...answer.deletePaths.map((path) => ({ path, content: null })),
  );
  changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { changes, problems, current: shown };
}
