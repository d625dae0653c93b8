import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { structuredPatch } from 'diff';
import type { ChangesAnswer } from '../claude/answer-schemas.js';
import { applyFileEdits, type Edit } from '../claude/search-replace.js';
import { git } from './eval-git.js';

// The oracle's answer: the task's gold patch, said the way a model says a change. The patch is
// applied to the base by git; each file it changes becomes search/replace edits, one per hunk of
// three lines' context (the whole file as one edit where a hunk's text is not unique), each new
// file its complete content, each removed file a deletion. The edits are checked by booty's own
// edit applier, so what the oracle sends is what booty will write.

export type GoldAnswer = Pick<ChangesAnswer, 'edits' | 'changes' | 'deletePaths'>;

/** The gold patch on `head` as an answer; throws with git's words when it does not apply. */
export async function goldAnswer(bare: string, head: string, patch: string): Promise<GoldAnswer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'booty-eval-gold-'));
  try {
    const env = { GIT_INDEX_FILE: path.join(dir, 'index') };
    await git(['read-tree', head], { gitDir: bare, env });
    await git(['apply', '--cached', '--whitespace=nowarn', '-'], { gitDir: bare, env, input: patch });
    const tree = (await git(['write-tree'], { gitDir: bare, env })).trim();
    const listed = await git(['diff-tree', '-r', '-z', '--no-renames', '--name-status', head, tree], {
      gitDir: bare,
    });
    const parts = listed.split('\0').filter(Boolean);
    const answer: GoldAnswer = { edits: [], changes: [], deletePaths: [] };
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const status = parts[i]!;
      const file = parts[i + 1]!;
      if (status === 'D') answer.deletePaths.push(file);
      else if (status === 'A') answer.changes.push({ path: file, content: await show(bare, tree, file) });
      else {
        const before = await show(bare, head, file);
        const after = await show(bare, tree, file);
        // An empty file has nothing to search for: its new content is given whole.
        if (before === '') answer.changes.push({ path: file, content: after });
        else answer.edits.push(...fileEdits(file, before, after));
      }
    }
    return answer;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const show = (bare: string, rev: string, file: string) => git(['show', `${rev}:${file}`], { gitDir: bare });

/** Lines with their endings, so slices join back to the exact bytes. */
const linesOf = (text: string) => text.match(/[^\n]*\n|[^\n]+$/g) ?? [];

/** One edit per hunk where each fits exactly once, in order; else one edit of the whole file. */
export function fileEdits(file: string, before: string, after: string): Edit[] {
  const whole: Edit[] = [{ path: file, search: before, replace: after }];
  const old = linesOf(before);
  const now = linesOf(after);
  const hunks = structuredPatch(file, file, before, after, '', '', { context: 3 }).hunks;
  const edits = hunks.map((h) => ({
    path: file,
    // A hunk of 0 old lines starts after its line, not at it.
    search: old.slice(h.oldLines ? h.oldStart - 1 : h.oldStart, h.oldStart - 1 + h.oldLines).join(''),
    replace: now.slice(h.newLines ? h.newStart - 1 : h.newStart, h.newStart - 1 + h.newLines).join(''),
  }));
  if (edits.length === 0) return [];
  if (edits.some((e) => e.search === '')) return whole;
  const applied = applyFileEdits(
    file,
    before,
    edits.map((edit, index) => ({ index, edit })),
  );
  return applied.ok && applied.content === after ? edits : whole;
}
