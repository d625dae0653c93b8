// The model's targeted edits, applied strictly: each edit's `search` text must occur exactly once
// in the file as the edits before it left it, and is replaced by `replace`. Nothing is guessed
// (no whitespace folding, no fuzzy match): an edit that does not fit is named and sent back. The
// one translation is line endings: the model writes \n, so in a file that uses \r\n an edit whose
// search text has no \r is matched, and written, with \r\n.

export interface Edit {
  path: string;
  search: string;
  replace: string;
}

export type EditResult = { ok: true; content: string } | { ok: false; problem: string };

/** Occurrences of `needle` in `text`, counted up to 2: only 0, 1 and "more" matter. */
function occurrences(text: string, needle: string): { count: number; at: number } {
  const at = text.indexOf(needle);
  if (at < 0) return { count: 0, at };
  return { count: text.indexOf(needle, at + 1) < 0 ? 1 : 2, at };
}

/** The edit in the file's line endings: CRLF where the file uses them and the search text does not. */
function inEndings(content: string, edit: Edit): { search: string; replace: string } {
  if (!content.includes('\r\n') || edit.search.includes('\r')) return edit;
  const crlf = (text: string) => text.replace(/\r?\n/g, '\r\n');
  return { search: crlf(edit.search), replace: crlf(edit.replace) };
}

/**
 * Applies one file's edits in order to its current content (null: the file does not exist). The
 * problem names the edit by its place in the answer's `edits` list and in the file's own edits.
 */
export function applyFileEdits(
  path: string,
  current: string | null,
  edits: { index: number; edit: Edit }[],
): EditResult {
  const name = (k: number) => `edits[${edits[k]!.index}] (edit ${k + 1} of ${edits.length} for ${path})`;
  if (current === null)
    return {
      ok: false,
      problem: `${name(0)}: ${path} does not exist (or is not a text file); give a new file's complete content in changes instead`,
    };
  let content = current;
  for (let k = 0; k < edits.length; k++) {
    const { search, replace } = inEndings(content, edits[k]!.edit);
    const found = occurrences(content, search);
    if (found.count !== 1)
      return {
        ok: false,
        problem: `${name(k)}: its search text occurs ${found.count === 0 ? 'nowhere' : 'more than once'} in ${path}${k > 0 ? ' after the edits before it' : ''}; copy the exact current lines${found.count === 0 ? '' : ' and include enough of them to match exactly once'}`,
      };
    content = content.slice(0, found.at) + replace + content.slice(found.at + search.length);
  }
  return { ok: true, content };
}

/** The answer's edits grouped by file, each keeping its place in the answer's list. */
export function editsByFile(edits: readonly Edit[]): Map<string, { index: number; edit: Edit }[]> {
  const byFile = new Map<string, { index: number; edit: Edit }[]>();
  edits.forEach((edit, index) => {
    const list = byFile.get(edit.path) ?? [];
    list.push({ index, edit });
    byFile.set(edit.path, list);
  });
  return byFile;
}
