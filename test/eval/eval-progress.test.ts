import { describe, expect, it } from 'vitest';
import { jsonProgress, terminalProgress } from '../../src/eval/eval-progress.js';
import { failedTask } from '../../src/eval/task-result.js';

// Progress: JSON lines where no one watches a terminal, and live lines redrawn in place where one does.

const done = { ...failedTask('t1', [], ''), error: null, resolved: true, finalState: 'promoted' };
const timing = { id: 't1', jobId: 'j', commit: null, wallMs: 12_000, jobMs: 10_000, hiddenMs: 2000 };

describe('eval progress', () => {
  it('writes one JSON object a line, with the ETA from the tasks done so far', () => {
    const lines: string[] = [];
    let now = 0;
    const p = jsonProgress(
      (l) => lines.push(l),
      3,
      () => now,
    );
    p.state({ id: 't1', state: 'testing', attempt: 1, at: 0 });
    now = 10_000;
    p.done(done, timing);
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { event: 'state', task: 't1', state: 'testing', attempt: 1 },
      {
        event: 'done',
        task: 't1',
        resolved: true,
        promoted: false,
        gate: 'held-unresolved',
        finalState: 'promoted',
        wallMs: 12_000,
        done: 1,
        total: 3,
        resolvedSoFar: 1,
        etaMs: 20_000,
      },
    ]);
  });

  it('redraws a line per running task and the total in a terminal, and prints a line as each ends', () => {
    let text = '';
    let now = 0;
    const p = terminalProgress({ write: (t: string) => (text += t), columns: 80 }, 2, () => now);
    p.state({ id: 't1', state: 'testing', attempt: 1, at: 0 });
    now = 4000;
    p.state({ id: 't2', state: 'generating', attempt: 1, at: 4000 });
    expect(text.split('\n').slice(-4)).toEqual([
      // The block of the first state is cleared before the redraw: cursor up two lines, erase below.
      '\x1b[2F\x1b[J  t1  testing  attempt 1  4.0s',
      '  t2  generating  attempt 1  0.0s',
      '  0/2 done, 0 resolved, 4.0s, ETA —',
      '',
    ]);
    now = 8000;
    p.done(done, timing);
    p.stop();
    // The block is cleared (cursor up over its lines, erase below) and the finished task printed.
    expect(text).toContain(
      '\x1b[3F\x1b[J✓ t1: promoted, resolved, 12.0s\n  t2  generating  attempt 1  4.0s\n  1/2 done, 1 resolved, 8.0s, ETA 0m08s\n',
    );
  });
});
