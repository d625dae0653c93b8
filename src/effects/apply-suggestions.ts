import type { FileChange, SuggestionApplied, SuggestionSkipped } from '../events/effect-results.js';
import type { ForgeEffects, SuggestionComment } from '../forges/forge.js';
import { suggestionBlocks } from '../forges/suggestion-blocks.js';
import type { EffectImpl } from '../machines/effect-contract.js';
import type { Workspace } from '../workspace/workspace.js';

// `@booty apply suggestions`: the writers' suggestion blocks on the pull request, applied exactly
// as written at the head the round synced to, with no model call. A block applies when its lines
// read the same at the head as where it was written; otherwise it is left, with why. The result
// is the files as they become, which the round's answer pushes as one commit.

export interface SuggestionPlan {
  changes: FileChange[];
  applied: SuggestionApplied[];
  skipped: SuggestionSkipped[];
}

/** File text at a commit: null when the file (or the commit) is not there. */
export type ReadFile = (commit: string, path: string) => string | null;

/** Lines as an editor numbers them: a final newline ends the last line, it does not start another. */
const linesOf = (text: string) => (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
const textOf = (lines: string[], endsWithNewline: boolean) =>
  lines.join('\n') + (endsWithNewline && lines.length ? '\n' : '');

/** Which blocks apply at `head`, and the files they make. Pure: the texts are read beforehand. */
export function planSuggestions(comments: SuggestionComment[], head: string, read: ReadFile): SuggestionPlan {
  const applied: SuggestionApplied[] = [];
  const skipped: SuggestionSkipped[] = [];
  const edits = new Map<string, { start: number; end: number; lines: string[] }[]>();
  for (const c of comments) {
    const skip = (reason: string) =>
      skipped.push({ commentId: c.id, author: c.author, path: c.path, reason });
    const blocks = suggestionBlocks(c.body);
    if (blocks.length !== 1) {
      skip('it holds more than one suggestion block');
      continue;
    }
    if (c.line === null) {
      skip('the comment is outdated: the lines it was written on changed');
      continue;
    }
    if (c.side !== 'RIGHT') {
      skip("it is on the old side of the diff, which the branch's files no longer hold");
      continue;
    }
    const start = c.startLine ?? c.line;
    const now = read(head, c.path);
    const then = c.commitId === head ? now : read(c.commitId, c.path);
    if (now === null) {
      skip('the file is not on the branch any more');
      continue;
    }
    const range = (text: string | null) => {
      const lines = text === null ? [] : linesOf(text);
      return c.line! <= lines.length ? lines.slice(start - 1, c.line!).join('\n') : null;
    };
    const written = range(then);
    if (written === null || written !== range(now)) {
      skip(`stale: lines ${start}–${c.line} changed since the suggestion was written`);
      continue;
    }
    const taken = edits.get(c.path) ?? [];
    const clash = taken.find((e) => e.start <= c.line! && start <= e.end);
    if (clash) {
      skip('it overlaps another suggestion applied in this commit');
      continue;
    }
    edits.set(c.path, [...taken, { start, end: c.line, lines: blocks[0]! }]);
    applied.push({ commentId: c.id, author: c.author, path: c.path, startLine: start, line: c.line });
  }
  const changes = [...edits].map(([path, list]): FileChange => {
    const text = read(head, path)!;
    const lines = linesOf(text);
    // Bottom first, so an edit never moves the lines of one still to come.
    for (const e of [...list].sort((a, b) => b.start - a.start))
      lines.splice(e.start - 1, e.end - e.start + 1, ...e.lines);
    return { path, content: textOf(lines, text.endsWith('\n')) };
  });
  changes.sort((a, b) => (a.path < b.path ? -1 : 1));
  return { changes, applied, skipped };
}

export function applySuggestions(
  forge: Pick<ForgeEffects, 'suggestions'>,
  workspace: () => Promise<Workspace>,
): EffectImpl<'applySuggestions'> {
  return async ({ job }) => {
    const head = job.workspace!.baseSha;
    // A suggestion an earlier round applied is the branch's already.
    const earlier = new Set(
      job.conversation.rounds.flatMap((r) => r.suggestions?.applied.map((a) => a.commentId) ?? []),
    );
    const comments = (await forge.suggestions(job)).filter((c) => !earlier.has(c.id));
    const ws = await workspace();
    const texts = new Map<string, string | null>();
    for (const commit of new Set([head, ...comments.map((c) => c.commitId)])) {
      const paths = [
        ...new Set(comments.filter((c) => commit === head || c.commitId === commit).map((c) => c.path)),
      ];
      for (const [path, text] of await ws.readAt(job, commit, paths)) texts.set(`${commit}:${path}`, text);
    }
    return planSuggestions(comments, head, (commit, path) => texts.get(`${commit}:${path}`) ?? null);
  };
}
