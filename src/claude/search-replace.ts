// The model's targeted edits, applied strictly: each edit's `search` text must occur exactly once
// in the file as the edits before it left it, and is replaced by `replace`. Nothing is guessed
// (no whitespace folding, no fuzzy match): an edit that does not fit is named and sent back. The
// one translation is line endings: the model writes \n, so in a file that uses \r\n an edit whose
// search text has no \r is matched, and written, with \r\n (or as written, in a file that mixes both).

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

/**
 * The forms the edit may take in the file: as written and, where the file uses \r\n and the search
 * text has no \r, in \r\n. A file may mix both endings, so each form is looked for.
 */
function forms(content: string, edit: Edit): { search: string; replace: string }[] {
  if (!content.includes('\r\n') || edit.search.includes('\r')) return [edit];
  const crlf = (text: string) => text.replace(/\r?\n/g, '\r\n');
  const inCrlf = { search: crlf(edit.search), replace: crlf(edit.replace) };
  // A one-line search is the same in both: its replacement takes the file's \r\n.
  return inCrlf.search === edit.search ? [inCrlf] : [inCrlf, edit];
}

/** Where the edit fits exactly once, counting every form's occurrences (up to 2). */
function locate(content: string, edit: Edit) {
  let count = 0;
  let fit: { at: number; search: string; replace: string } | null = null;
  for (const form of forms(content, edit)) {
    const found = occurrences(content, form.search);
    count += found.count;
    if (found.count > 0) fit = { at: found.at, ...form };
  }
  return { count: Math.min(count, 2), fit };
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
    const found = locate(content, edits[k]!.edit);
    if (found.count !== 1 || !found.fit)
      return {
        ok: false,
        problem: `${name(k)}: its search text occurs ${found.count === 0 ? 'nowhere' : 'more than once'} in ${path}${k > 0 ? ' after the edits before it' : ''}; copy the exact current lines${found.count === 0 ? '' : ' and include enough of them to match exactly once'}`,
      };
    const { at, search, replace } = found.fit;
    content = content.slice(0, at) + replace + content.slice(at + search.length);
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
