import fs from 'node:fs';
import path from 'node:path';
import { applyPatch, parsePatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { applyFileEdits } from '../../src/claude/search-replace.js';
import { builtinTasksFile } from '../../src/eval/builtin-tasks.js';
import { fileEdits } from '../../src/eval/gold-answer.js';
import { readTaskFile } from '../../src/eval/task-format.js';

// The unit tier's share of the built-in set, every task in this process: its gold patch and its
// hidden tests apply to its snapshot, and the oracle's answer (the gold patch said as search/replace
// edits, one per hunk) turns back, through booty's own edit applier, into exactly the patched
// files. The system tier runs the whole set as real jobs (eval-builtin.system.test.ts).

const tasks = readTaskFile(builtinTasksFile);

/** Each file a unified diff changes: its path, its text before and after (null where absent). */
function patched(dir: string, patch: string) {
  return parsePatch(patch).map((file) => {
    const name = (file.newFileName === '/dev/null' ? file.oldFileName! : file.newFileName!).replace(
      /^[ab]\//,
      '',
    );
    const at = path.join(dir, name);
    const before = file.oldFileName === '/dev/null' ? null : fs.readFileSync(at, 'utf8');
    const after = file.newFileName === '/dev/null' ? null : applyPatch(before ?? '', file);
    return { name, before, after };
  });
}

describe('the built-in eval tasks, in process', () => {
  it('holds at least 24 tasks from at least 8 repositories', () => {
    expect(tasks.length).toBeGreaterThanOrEqual(24);
    expect(new Set(tasks.map((t) => t.source?.repo)).size).toBeGreaterThanOrEqual(8);
  });

  for (const task of tasks) {
    it(`${task.id}: the gold patch and the hidden tests apply, and the oracle's edits rebuild the patch`, () => {
      expect(task.goldPatch).not.toBeNull();
      const gold = patched(task.repo, task.goldPatch!);
      expect(gold.length).toBeGreaterThan(0);
      for (const file of gold) {
        expect(file.after, `${file.name} does not take the gold patch`).not.toBe(false);
        if (file.before === null || file.after === null || file.before === '') continue;
        const edits = fileEdits(file.name, file.before, file.after as string);
        const rebuilt = applyFileEdits(
          file.name,
          file.before,
          edits.map((edit, index) => ({ index, edit })),
        );
        expect(rebuilt, file.name).toEqual({ ok: true, content: file.after });
      }
      for (const file of patched(task.repo, task.hidden.patch)) {
        expect(file.after, `${file.name} does not take the hidden tests`).not.toBe(false);
      }
      // The hidden tests name what must pass (the system tier checks that it fails on the base).
      expect(task.hidden.failToPass.length).toBeGreaterThan(0);
    });
  }
});
