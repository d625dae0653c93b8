// GitHub's suggestion blocks: a review comment's ```suggestion fenced block is the text that
// replaces the lines the comment is on, as the writer typed it (an empty block deletes them).
// Pure.

const BLOCK = /^[ \t]*(`{3,}|~{3,})[ \t]*suggestion[ \t]*\r?\n([\s\S]*?)^[ \t]*\1[ \t]*$/gm;

export const hasSuggestion = (body: string) => suggestionBlocks(body).length > 0;

/** Each suggestion block's lines, in the order written. */
export function suggestionBlocks(body: string): string[][] {
  return [...body.matchAll(BLOCK)].map((m) => {
    const text = m[2]!.replace(/\r\n/g, '\n');
    return text === '' ? [] : text.replace(/\n$/, '').split('\n');
  });
}
